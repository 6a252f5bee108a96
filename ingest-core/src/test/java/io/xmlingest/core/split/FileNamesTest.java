package io.xmlingest.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FileNamesTest {

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void aNameThatFitsIsKeptWhole() {
        assertThat(FileNames.fit("persons.xml", ".report.json", 255)).isEqualTo("persons.xml.report.json");
    }

    @Test
    void aLongNameIsCutByBytesOnACharacterBoundaryAndMarkedTheSameEveryTime() {
        String chinese = "\u5b57".repeat(84) + ".xml";
        String emoji = "a".repeat(230) + "\uD83D\uDE00" + "b".repeat(20);

        String cut = FileNames.fit(chinese, ".report.json", 255);
        String cutEmoji = FileNames.fit(emoji, "", 245);

        assertThat(bytes(cut)).isLessThanOrEqualTo(255);
        assertThat(cut).matches("(\u5b57)+~[0-9a-f]{12}\\.report\\.json");
        assertThat(FileNames.fit(chinese, ".report.json", 255)).isEqualTo(cut);
        // Never half a character: the emoji is kept whole or left out.
        assertThat(cutEmoji).matches("a{230}~[0-9a-f]{12}");
        assertThat(bytes(FileNames.fit(emoji, "", 249))).isLessThanOrEqualTo(249);
        assertThat(FileNames.fit(emoji, "", 249)).startsWith("a".repeat(230) + "\uD83D\uDE00bb~");
    }

    @Test
    void twoLongNamesThatBeginAlikeStayApart() {
        String a = "x".repeat(300) + "-a.xml";
        String b = "x".repeat(300) + "-b.xml";

        assertThat(FileNames.fit(a, "", 100)).isNotEqualTo(FileNames.fit(b, "", 100));
        assertThat(bytes(FileNames.fit(a, "", 100))).isEqualTo(100);
    }
}
