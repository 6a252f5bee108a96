package io.xmlingest.core.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PageAssemblerTest {

    private static OutgoingRecord record(long index, int valueBytes) {
        return new OutgoingRecord(index, new byte[] {1}, new byte[valueBytes - 1], "t");
    }

    private static List<Page> assemble(PagePolicy policy, int... sizes) {
        PageAssembler assembler = new PageAssembler("f.xml", "id", policy);
        List<Page> pages = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            pages.addAll(assembler.add(record(i, sizes[i])));
        }
        assembler.finish().ifPresent(pages::add);
        return pages;
    }

    @Test
    void closesPagesAtTheRecordBound() {
        List<Page> pages = assemble(new PagePolicy(3, 1_000_000), 10, 10, 10, 10, 10, 10, 10);
        assertThat(pages).extracting(Page::size).containsExactly(3, 3, 1);
        assertThat(pages).extracting(Page::number).containsExactly(0L, 1L, 2L);
        assertThat(pages).extracting(Page::firstIndex).containsExactly(0L, 3L, 6L);
    }

    @Test
    void closesPagesBeforeTheyExceedTheByteBound() {
        List<Page> pages = assemble(new PagePolicy(100, 100), 40, 40, 40, 60, 50, 50);
        // 40+40 | 40+60 (exactly the bound) | 50+50
        assertThat(pages).extracting(Page::size).containsExactly(2, 2, 2);
        assertThat(pages).extracting(Page::bytes).containsExactly(80L, 100L, 100L);
    }

    @Test
    void aRecordLargerThanTheByteBoundFormsItsOwnPage() {
        List<Page> pages = assemble(new PagePolicy(100, 100), 10, 500, 10);
        assertThat(pages).extracting(Page::size).containsExactly(1, 1, 1);
        assertThat(pages.get(1).bytes()).isEqualTo(500);
    }

    @Test
    void keepsEveryRecordOnceInOrder() {
        int[] sizes = new int[1000];
        java.util.Arrays.fill(sizes, 7);
        List<Page> pages = assemble(new PagePolicy(33, 150), sizes);
        List<Long> indexes = new ArrayList<>();
        pages.forEach(p -> p.records().forEach(r -> indexes.add(r.index())));
        assertThat(indexes).hasSize(1000).isSorted().doesNotHaveDuplicates();
        assertThat(pages).allSatisfy(p -> {
            assertThat(p.size()).isLessThanOrEqualTo(33);
            assertThat(p.bytes()).isLessThanOrEqualTo(150);
        });
    }

    @Test
    void aFullPageClosesWithItsLastRecordNotTheNextOne() {
        PageAssembler assembler = new PageAssembler("f.xml", "id", new PagePolicy(2, 1_000_000));
        assertThat(assembler.add(record(0, 10))).isEmpty();
        assertThat(assembler.add(record(1, 10))).singleElement().extracting(Page::size).isEqualTo(2);
        assertThat(assembler.finish()).isEmpty();
    }

    @Test
    void anOversizedRecordWithAOneRecordBoundClosesTwoPagesAtOnce() {
        PageAssembler assembler = new PageAssembler("f.xml", "id", new PagePolicy(1, 100));
        assertThat(assembler.add(record(0, 10))).hasSize(1);
        assertThat(assembler.add(record(1, 500))).extracting(Page::firstIndex).containsExactly(1L);
        List<Page> two = new PageAssembler("f.xml", "id", new PagePolicy(2, 100)).add(record(0, 10));
        assertThat(two).isEmpty();
    }

    @Test
    void anEmptyFileHasNoPage() {
        assertThat(assemble(new PagePolicy(10, 100))).isEmpty();
    }
}
