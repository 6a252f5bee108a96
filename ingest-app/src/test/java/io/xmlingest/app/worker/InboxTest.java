package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InboxTest {

    private static final String SHA = "ab".repeat(32);

    @TempDir
    Path dir;

    private Inbox inbox() {
        // A minute ahead of the files' own times, so every file written here has settled, whatever the date.
        return new Inbox(dir, "w1", 0, Clock.offset(Clock.systemUTC(), java.time.Duration.ofMinutes(1)));
    }

    private Path claimed(Inbox inbox, String name) throws IOException {
        Files.writeString(dir.resolve(name), "<persons/>");
        return inbox.claimNext().orElseThrow();
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFileSystemInTroubleIsTheInboxsNotOneFilesEvenWithTheFoldersWritable() throws IOException {
        // A full disk fails every claim: each file taken for stuck, one by one, would leave the worker reported healthy
        // while it takes nothing.
        Inbox inbox = inbox();
        inbox.claimMover((from, to) -> {
            throw new java.nio.file.FileSystemException(from.toString(), null, "No space left on device");
        });
        Files.writeString(dir.resolve("a.xml"), "<persons/>");
        assertThatThrownBy(inbox::claimNext).isInstanceOf(InboxUnavailableException.class)
                .hasMessageContaining("No space left on device");
        assertThat(inbox.stuck()).isEmpty();
    }

    @Test
    void aFileModifiedInTheFutureWaitsAndIsNamed() throws IOException {
        // Clock skew, or a copy that kept its time: it waited without a word while the worker was reported healthy.
        Inbox inbox = new Inbox(dir, "w1", 0, Clock.systemUTC());
        Files.writeString(dir.resolve("later.xml"), "<persons/>");
        Files.setLastModifiedTime(dir.resolve("later.xml"),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 600_000));
        assertThat(inbox.claimNext()).isEmpty();
        assertThat(inbox.ahead()).containsExactly("later.xml");
        Files.setLastModifiedTime(dir.resolve("later.xml"),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        assertThat(inbox.claimNext()).map(p -> p.getFileName().toString()).contains("later.xml");
        inbox.claimNext();
        assertThat(inbox.ahead()).isEmpty();
    }

    @Test
    void aFileThatCannotBeClaimedIsPassedOverAndTriedAgainLaterWhileTheOthersAreTaken() throws IOException {
        // As a file the worker may not move is (immutable, or another user's under a sticky bit): it held up every
        // file behind it, and the worker reported the inbox DOWN, though the inbox was fine.
        MovingClock clock = new MovingClock(Instant.now().plusSeconds(60));
        Inbox inbox = new Inbox(dir, "w1", 0, clock);
        java.util.concurrent.atomic.AtomicBoolean locked = new java.util.concurrent.atomic.AtomicBoolean(true);
        inbox.claimMover((from, to) -> {
            if (locked.get() && from.getFileName().toString().equals("held.xml")) {
                throw new java.nio.file.FileSystemException(from.toString(), null, "Operation not permitted");
            }
            Files.move(from, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        });
        Files.writeString(dir.resolve("held.xml"), "<persons/>");
        Files.setLastModifiedTime(dir.resolve("held.xml"), java.nio.file.attribute.FileTime.fromMillis(clock.millis() - 600_000));
        Files.writeString(dir.resolve("next.xml"), "<persons/>");

        assertThat(inbox.claimNext()).map(p -> p.getFileName().toString()).contains("next.xml");
        assertThat(inbox.stuck()).containsExactly("held.xml");
        // Movable now, but not tried again before its minute is up.
        locked.set(false);
        assertThat(inbox.claimNext()).as("not tried again at once").isEmpty();
        clock.advance(Inbox.STUCK_RETRY_MILLIS - 1);
        assertThat(inbox.claimNext()).as("nor a moment before the minute").isEmpty();
        clock.advance(1);
        assertThat(inbox.claimNext()).map(p -> p.getFileName().toString()).contains("held.xml");
        assertThat(inbox.stuck()).isEmpty();
    }

    @Test
    void anInboxGoneIsNamedNotMadeAgainAndAFileEndedMeanwhileIsMovedOnceItIsBack() throws IOException {
        Path in = dir.resolve("in");
        Inbox inbox = new Inbox(in, "w1", 0, Clock.offset(Clock.systemUTC(), java.time.Duration.ofMinutes(1)));
        Files.writeString(in.resolve("a.xml"), "<persons/>");
        Path a = inbox.claimNext().orElseThrow();
        Path aside = Files.move(in, dir.resolve("unmounted"));

        for (Runnable look : List.<Runnable>of(inbox::unfinished, inbox::claimNext, inbox::prepareAgain,
                () -> inbox.toDone(a, SHA, "{}"))) {
            assertThatThrownBy(look::run).isInstanceOf(InboxUnavailableException.class)
                    .hasMessage("cannot list the inbox " + in.toAbsolutePath() + ": no such file or directory");
        }
        assertThat(in).as("a mount point's folder is not written to").doesNotExist();
        // An empty folder in its place, as a mount point is with its volume away: not taken for the inbox.
        Files.createDirectory(in);
        assertThatThrownBy(inbox::prepareAgain).isInstanceOf(InboxUnavailableException.class)
                .hasMessageContaining("is not the one this worker started with");
        assertThat(names(in)).isEmpty();
        Files.delete(in);

        Files.move(aside, in);
        WorkerHarness.deleteTree(in.resolve("done"));
        inbox.prepareAgain();
        assertThat(in.resolve("done")).isDirectory();
        assertThat(inbox.unfinished()).containsExactly(a);
        inbox.toDone(a, SHA, "{}");
        assertThat(names(in.resolve("done"))).containsExactly("a.xml", "a.xml.report.json");
    }

    @Test
    void aCopyIntoDoneThatAKillCutShortIsDeletedAtTheNextStartUnlessItMayStillBeWritten() throws IOException {
        inbox();
        Path abandoned = Files.writeString(dir.resolve("done").resolve(".a.xml.0f9e.moving"), "<persons>");
        Files.setLastModifiedTime(abandoned, FileTime.from(Instant.now().minus(java.time.Duration.ofHours(2))));
        Path underWay = Files.writeString(dir.resolve("failed").resolve(".b.xml.77aa.moving"), "<persons>");
        Path file = Files.writeString(dir.resolve("done").resolve("c.xml"), "<persons/>");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(java.time.Duration.ofHours(2))));

        inbox();

        assertThat(abandoned).doesNotExist();
        assertThat(underWay).as("another worker's copy, under way").exists();
        assertThat(file).exists();
    }

    /** At start, an inbox that cannot be prepared is a setting to fix (exit 2), not a crash. */
    @Test
    void anInboxThatCannotBePreparedAtStartNamesTheSetting() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("inbox"), "a file");
        assertThatThrownBy(() -> new Inbox(notADirectory, "w1", 0, Clock.systemUTC()))
                .isInstanceOf(io.xmlingest.core.error.ConfigException.class)
                .hasMessageStartingWith("cannot prepare the inbox " + notADirectory.toAbsolutePath())
                .hasMessageEndingWith("(setting: inbox.dir)");
    }

    /**
     * The worker warns of an inbox problem once, while its words stay the same: a report's temporary copy, named anew at
     * every try, made a done/ it may not write a new warning every second.
     */
    @Test
    void aFolderThatCannotBeWrittenIsNamedAloneNotWithTheFileTriedInIt() {
        Path done = dir.resolve("inbox").resolve("done");
        String[] said = new String[2];
        for (int i = 0; i < 2; i++) {
            said[i] = new InboxUnavailableException("cannot move a.xml to", done, new java.nio.file.AccessDeniedException(
                    done.resolve("a.xml.report.json." + java.util.UUID.randomUUID() + ".tmp").toString())).getMessage();
        }
        assertThat(said[0]).isEqualTo("cannot move a.xml to " + done.toAbsolutePath() + ": permission denied")
                .isEqualTo(said[1]);
        // A path elsewhere is still named.
        assertThat(new InboxUnavailableException("cannot move a.xml to", done, new java.nio.file.AccessDeniedException(
                "/elsewhere/a.xml")).getMessage()).endsWith(": /elsewhere/a.xml: permission denied");
    }

    /** A full disk, say: the worker then waits, unready, rather than stop on a file that did nothing wrong. */
    @Test
    void aSidecarThatCannotBeWrittenIsTheInboxsTroubleNotTheFiles() throws IOException {
        Inbox inbox = inbox();
        Path a = claimed(inbox, "a.xml");
        Path inTheWay = Files.createDirectories(a.resolveSibling(".a.xml.identity.tmp").resolve("in-the-way"));

        assertThatThrownBy(() -> inbox.recordIdentity(a, new RecordedIdentity(SHA, 10, FileTime.fromMillis(0))))
                .isInstanceOf(InboxUnavailableException.class)
                .hasMessageStartingWith("cannot write " + a.resolveSibling(".a.xml.identity").toAbsolutePath());
        Files.delete(inTheWay);
        Files.delete(inTheWay.getParent());
        inbox.recordIdentity(a, new RecordedIdentity(SHA, 10, FileTime.fromMillis(0)));
        assertThat(names(a.getParent())).containsExactly(".a.xml.identity", "a.xml");
    }

    @Test
    void theIdentityIsKeptInAHiddenSidecarThatTheInboxNeverTakesAndThatReadsBackTheSame() throws IOException {
        Inbox inbox = inbox();
        Path a = claimed(inbox, "a.xml");
        RecordedIdentity identity = new RecordedIdentity(SHA, 10, FileTime.from(Instant.parse("2026-11-23T11:59:00.123456789Z")));

        inbox.recordIdentity(a, identity);

        assertThat(names(a.getParent())).containsExactly(".a.xml.identity", "a.xml");
        assertThat(inbox.unfinished()).containsExactly(a);
        assertThat(inbox.recordedIdentity(a)).contains(identity);
        // Even a sidecar that ended up in the inbox itself is never claimed as a file.
        Files.move(a.resolveSibling(".a.xml.identity"), dir.resolve(".a.xml.identity"));
        assertThat(inbox.claimNext()).isEmpty();
    }

    /**
     * Files are claimed oldest first by the times read when the inbox was listed, names breaking ties,
     * and one listing serves the claims after it: a file dropped meanwhile waits for the next listing,
     * even with an older time (a move keeps it), and a listed file taken or written to since is passed
     * over when its turn comes, not claimed.
     */
    @Test
    void aListingServesTheClaimsAfterItAndEachFileIsLookedAtAgainWhenItsTurnComes() throws IOException {
        // A clock that stands still, a minute ahead of the files: the listing never ages, however slow the machine.
        Inbox inbox = new Inbox(dir, "w1", 0, Clock.fixed(Instant.now().plusSeconds(60), java.time.ZoneOffset.UTC));
        Instant base = Instant.now().minusSeconds(3600);
        List<String> byAge = List.of("c.xml", "a.xml", "e.xml", "b.xml", "d.xml");
        for (int i = 0; i < byAge.size(); i++) {
            Path f = Files.writeString(dir.resolve(byAge.get(i)), "<persons/>");
            Files.setLastModifiedTime(f, FileTime.from(base.plusSeconds(Math.min(i, 3))));
        }
        assertThat(claimedName(inbox)).isEqualTo("c.xml");

        Path late = Files.writeString(dir.resolve("0-late.xml"), "<persons/>");
        Files.setLastModifiedTime(late, FileTime.from(base.minusSeconds(3600)));
        // Replaced by a directory, which is never taken; a file taken by another worker is gone the same way.
        Files.delete(dir.resolve("a.xml"));
        Files.createDirectory(dir.resolve("a.xml"));
        // Written to again: under the inbox's clock, a minute ahead, it has not settled.
        Files.setLastModifiedTime(dir.resolve("e.xml"), FileTime.from(Instant.now().plusSeconds(120)));

        assertThat(claimedName(inbox)).isEqualTo("b.xml");
        assertThat(claimedName(inbox)).as("b and d tie on time").isEqualTo("d.xml");
        assertThat(claimedName(inbox)).as("the next listing").isEqualTo("0-late.xml");
        assertThat(inbox.claimNext()).isEmpty();
        assertThat(names(dir)).contains("a.xml", "e.xml");
        assertThat(dir.resolve("a.xml")).isDirectory();
    }

    /** A listing that has served claims for a while is made again, so a file dropped since waits no longer. */
    @Test
    void aListingIsMadeAgainOnceItHasAged() throws IOException {
        MovingClock clock = new MovingClock(Instant.now().plusSeconds(60));
        Inbox inbox = new Inbox(dir, "w1", 0, clock);
        Instant base = Instant.now().minusSeconds(3600);
        for (String name : List.of("a.xml", "b.xml", "c.xml")) {
            Files.setLastModifiedTime(Files.writeString(dir.resolve(name), "<persons/>"), FileTime.from(base));
        }
        assertThat(claimedName(inbox)).isEqualTo("a.xml");
        Path late = Files.writeString(dir.resolve("0-late.xml"), "<persons/>");
        Files.setLastModifiedTime(late, FileTime.from(base.minusSeconds(60)));

        clock.advance(Inbox.LISTING_MAX_AGE_MILLIS);
        assertThat(claimedName(inbox)).as("the listing serves claims up to its age").isEqualTo("b.xml");
        clock.advance(1);
        assertThat(claimedName(inbox)).as("then the inbox is listed again").isEqualTo("0-late.xml");
        assertThat(claimedName(inbox)).isEqualTo("c.xml");
    }

    /** A clock the test moves on by hand. */
    private static final class MovingClock extends Clock {
        private Instant now;

        MovingClock(Instant start) {
            now = start;
        }

        void advance(long millis) {
            now = now.plusMillis(millis);
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static String claimedName(Inbox inbox) {
        return inbox.claimNext().orElseThrow().getFileName().toString();
    }

    @Test
    void entriesThatAreNeverTakenAreNamedOnceWhileTheyAreThere() throws IOException {
        Inbox inbox = inbox();
        Files.createDirectory(dir.resolve("batch-dir"));
        Files.createSymbolicLink(dir.resolve("gone.xml"), dir.resolve("nowhere.xml"));
        Files.writeString(dir.resolve("real.xml"), "<persons/>");

        assertThat(inbox.claimNext()).hasValueSatisfying(p -> assertThat(p.getFileName().toString()).isEqualTo("real.xml"));
        // Before, they were skipped without a word; the worker's own folders are not named.
        assertThat(inbox.leftAlone()).containsExactlyInAnyOrder("batch-dir", "gone.xml");

        Files.delete(dir.resolve("batch-dir"));
        assertThat(inbox.claimNext()).isEmpty();
        assertThat(inbox.leftAlone()).containsExactly("gone.xml");
    }

    @Test
    void aRelativeLinkStillNamesItsFileOnceClaimed() throws IOException {
        Path outside = Files.createDirectories(dir.resolve("exports"));
        Files.writeString(outside.resolve("big.xml"), "<persons/>");
        Files.createSymbolicLink(dir.resolve("big.xml"), Path.of("exports", "big.xml"));

        Path claimed = inbox().claimNext().orElseThrow();

        // Moved one folder down as it was, it named processing/w1/exports/big.xml, which is not there: the file failed.
        assertThat(Files.readString(claimed)).isEqualTo("<persons/>");
    }

    @Test
    void aFileWithoutARecordedIdentityHasNone() throws IOException {
        Inbox inbox = inbox();
        Path a = claimed(inbox, "a.xml");

        assertThat(inbox.recordedIdentity(a)).isEmpty();
    }

    @Test
    void theSidecarGoesWithTheFileToDoneOrFailed() throws IOException {
        Inbox inbox = inbox();
        Path a = claimed(inbox, "a.xml");
        inbox.recordIdentity(a, RecordedIdentity.hashOnly(SHA));
        Path b = claimed(inbox, "b.xml");
        inbox.recordIdentity(b, RecordedIdentity.hashOnly(SHA));

        inbox.toDone(a, SHA, "{}");
        inbox.toFailed(b, SHA, "{}");

        assertThat(names(dir.resolve("processing").resolve("w1"))).isEmpty();
        assertThat(names(dir.resolve("done"))).containsExactly("a.xml", "a.xml.report.json");
        assertThat(names(dir.resolve("failed"))).containsExactly("b.xml", "b.xml.report.json");
    }

    /**
     * A failed file taken out of failed/ and dropped again left its report there after it completed,
     * saying it had failed. The report goes once the same content completes; another content's
     * report, or one whose file is still in failed/, stays.
     */
    @Test
    void aFailedReportGoesOnceItsFileDroppedAgainCompletes() throws IOException {
        Inbox inbox = inbox();
        String other = "cd".repeat(32);
        inbox.toFailed(claimed(inbox, "a.xml"), SHA, FileReport.of("failed", "a.xml", SHA, 10, null, 0, null, "x"));
        inbox.toFailed(claimed(inbox, "b.xml"), other, FileReport.of("failed", "b.xml", other, 10, null, 0, null, "x"));
        inbox.toFailed(claimed(inbox, "c.xml"), SHA, FileReport.of("failed", "c.xml", SHA, 10, null, 0, null, "x"));
        Path failed = dir.resolve("failed");
        Files.move(failed.resolve("a.xml"), dir.resolve("a.xml"));
        Files.move(failed.resolve("b.xml"), dir.resolve("b.xml"));

        inbox.toDone(inbox.claimNext().orElseThrow(), SHA, "{}");
        inbox.toDone(inbox.claimNext().orElseThrow(), SHA, "{}"); // b.xml, changed since it failed
        Files.writeString(dir.resolve("c.xml"), "<persons/>"); // a copy: c.xml is still in failed/
        inbox.toDone(inbox.claimNext().orElseThrow(), SHA, "{}");

        assertThat(names(failed)).containsExactly("b.xml.report.json", "c.xml", "c.xml.report.json");
        assertThat(FileReport.fileIdOf(Files.readString(failed.resolve("b.xml.report.json")))).contains(other);
        assertThat(FileReport.fileIdOf("not json")).isEmpty();
    }

    @Test
    void theCrashCountIsKeptBesideTheFileGoesWithItAndIsNeverInheritedByANewFileOfTheSameName() throws IOException {
        Inbox inbox = inbox();
        String longName = "\u00e9".repeat(100) + "x".repeat(47) + ".xml"; // 251 bytes: no room for a suffix
        Path a = claimed(inbox, longName);
        FileCrashes crashes = FileCrashes.after(Optional.empty(), SHA, 300, new OutOfMemoryError("Java heap space"));
        inbox.recordCrash(a, crashes);
        assertThat(inbox.crashes(a)).contains(crashes);
        Path processing = dir.resolve("processing").resolve("w1");
        assertThat(names(processing)).hasSize(2).allMatch(n -> n.equals(longName) || n.startsWith("."));

        inbox.toFailed(a, SHA, "{}");
        assertThat(names(processing)).isEmpty();

        // One the worker died before deleting: the next file of that name is claimed without it.
        Path b = claimed(inbox, "b.xml");
        inbox.recordCrash(b, crashes);
        Files.delete(b);
        Path again = claimed(inbox, "b.xml");
        assertThat(inbox.crashes(again)).isEmpty();
        inbox.recordCrash(again, crashes);
        assertThat(inbox.toSharded(again, SHA)).isPresent();
        assertThat(names(processing)).isEmpty();
    }

    /**
     * A report that cannot take its place in done/ (a folder of its name in the way): the move fails, is tried again
     * every second, and each try left its temporary copy of the report behind.
     */
    @Test
    void aReportThatCannotTakeItsPlaceLeavesNoTemporaryCopyBehind() throws IOException {
        Inbox inbox = inbox();
        Path a = claimed(inbox, "a.xml");
        Path inTheWay = Files.createDirectories(dir.resolve("done").resolve("a.xml.report.json").resolve("x"));
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> inbox.toDone(a, SHA, "{}")).isInstanceOf(InboxUnavailableException.class);
        }
        assertThat(names(dir.resolve("done"))).containsExactly("a.xml.report.json");
        Files.delete(inTheWay);
        Files.delete(inTheWay.getParent());
        inbox.toDone(a, SHA, "{}");
        assertThat(names(dir.resolve("done"))).containsExactlyInAnyOrder("a.xml", "a.xml.report.json");
    }

    /**
     * A name a few bytes short of the file system's 255: the report, the sidecar, a second file of
     * that name and the name in sharded/ would each be longer, and could not be made, which stopped
     * the worker on every start with the file left in processing/.
     */
    @Test
    void aFileWithANameNearTheLimitIsFinishedItsDerivedNamesCutAndMarked() throws IOException {
        Inbox inbox = inbox();
        String longName = "\u00e9".repeat(100) + "x".repeat(47) + ".xml"; // 251 bytes: 100 two-byte letters
        Path a = claimed(inbox, longName);
        RecordedIdentity identity = RecordedIdentity.hashOnly(SHA);
        inbox.recordIdentity(a, identity);
        assertThat(inbox.recordedIdentity(a)).contains(identity);

        Path done = inbox.toDone(a, SHA, "{\"first\":1}");
        Path again = inbox.toDone(claimed(inbox, longName), SHA, "{\"second\":2}");

        assertThat(done.getFileName().toString()).isEqualTo(longName);
        List<String> names = names(dir.resolve("done"));
        assertThat(names).hasSize(4).contains(longName).allMatch(n -> n.getBytes(StandardCharsets.UTF_8).length <= 255);
        assertThat(names.stream().filter(n -> n.endsWith(".report.json")).map(n -> read(dir.resolve("done").resolve(n))))
                .containsExactlyInAnyOrder("{\"first\":1}", "{\"second\":2}");
        assertThat(again.getFileName().toString()).contains("~").endsWith("-" + SHA.substring(0, 12));
        assertThat(Inbox.fit(longName, ".report.json")).isEqualTo(Inbox.fit(longName, ".report.json"))
                .startsWith("\u00e9".repeat(100)).endsWith(".report.json");
        assertThat(names(dir.resolve("processing").resolve("w1"))).isEmpty();
        assertThat(inbox.toSharded(claimed(inbox, longName), SHA)).hasValueSatisfying(p ->
                assertThat(Inbox.shardedFileId(p)).isEqualTo(SHA));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theMarkerOfAnOlderWorkerIsReadAsTheHashAloneAndReplacedWhenTheIdentityIsRecorded() throws IOException {
        Inbox inbox = inbox();
        Path a = claimed(inbox, "a.xml");
        Files.writeString(a.resolveSibling(".a.xml.fileid"), SHA + "\n");

        assertThat(inbox.recordedIdentity(a)).contains(RecordedIdentity.hashOnly(SHA));

        RecordedIdentity full = new RecordedIdentity(SHA, 10, FileTime.from(Instant.parse("2026-11-23T11:59:00Z")));
        inbox.recordIdentity(a, full);
        assertThat(names(a.getParent())).containsExactly(".a.xml.identity", "a.xml");
        assertThat(inbox.recordedIdentity(a)).isEqualTo(Optional.of(full));
    }

    @Test
    void theMarkerOfAnOlderWorkerIsRemovedWithTheFile() throws IOException {
        Inbox inbox = inbox();
        Path a = claimed(inbox, "a.xml");
        Files.writeString(a.resolveSibling(".a.xml.fileid"), SHA);

        inbox.toDone(a, SHA, "{}");

        assertThat(names(dir.resolve("processing").resolve("w1"))).isEmpty();
    }

    @Test
    void aWorkerOfAGroupTakesOverOtherWorkersClaimsAndMovesFilesToShardedUnderTheirFileId() throws Exception {
        Inbox mine = new Inbox(dir, "w2", 0, Clock.systemUTC());
        Path theirs = Files.createDirectories(dir.resolve("processing").resolve("dead"));
        Files.writeString(theirs.resolve("left.xml"), "<a/>");
        mine.takeOverClaims(0);
        assertThat(mine.unfinished()).extracting(p -> p.getFileName().toString()).containsExactly("left.xml");
        assertThat(theirs.resolve("left.xml")).doesNotExist();

        Path claimed = mine.unfinished().get(0);
        Path shared = mine.toSharded(claimed, "abc123").orElseThrow();
        assertThat(shared.getFileName().toString()).isEqualTo("abc123.left.xml");
        assertThat(Inbox.shardedFileId(shared)).isEqualTo("abc123");
        assertThat(Inbox.shardedName(shared)).isEqualTo("left.xml");
        assertThat(mine.sharded()).containsExactly(shared);
        // A claim that vanished (another worker moved it on) is let go, not an error.
        assertThat(mine.toSharded(claimed, "abc123")).isEmpty();
        Path done = mine.toDone(shared, "abc123", "{}");
        assertThat(done.getFileName().toString()).isEqualTo("left.xml");
    }

    /** done/ deleted while a file was ingested: made again, where the finished file's move stopped the worker. */
    @Test
    void aFolderDeletedMeanwhileIsMadeAgain() throws Exception {
        Inbox inbox = inbox();
        Path claimed = claimed(inbox, "a.xml");
        Files.delete(dir.resolve("done"));
        assertThat(inbox.toDone(claimed, SHA, "{}")).hasContent("<persons/>");
        assertThat(claimed).doesNotExist();
    }

    /**
     * done/ a link to another file system, where no rename goes: the file is copied whole, renamed
     * there and deleted here. Before, the finished file stopped the worker at every start.
     */
    @Test
    void aFinishedFileMovesToAFolderOnAnotherFileSystem() throws Exception {
        Path elsewhere = Files.createTempDirectory(Path.of("/dev/shm"), "xmlingest-done");
        try {
            assertThat(Files.getFileStore(elsewhere)).as("/dev/shm is another file system")
                    .isNotEqualTo(Files.getFileStore(dir));
            Inbox inbox = inbox();
            Path claimed = claimed(inbox, "a.xml");
            Files.delete(dir.resolve("done"));
            Files.createSymbolicLink(dir.resolve("done"), elsewhere);
            Path done = inbox.toDone(claimed, SHA, "{\"outcome\":\"completed\"}");
            assertThat(elsewhere.resolve("a.xml")).hasContent("<persons/>");
            assertThat(done.getFileName().toString()).isEqualTo("a.xml");
            assertThat(claimed).doesNotExist();
            assertThat(names(elsewhere)).containsExactly("a.xml", "a.xml.report.json");
        } finally {
            try (Stream<Path> left = Files.list(elsewhere)) {
                for (Path p : left.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(elsewhere);
        }
    }

    /**
     * Of two workers with copies of one content, exactly one holds it: the hold is made by a link,
     * which fails when it exists (before, marks compared by time could tie, and both went ahead). The
     * holder holds it again after a restart; it lets go as its copy leaves processing/, and a hold
     * whose copy was taken away by hand is let go by the next to ask.
     */
    @Test
    void oneContentIsHeldByOneClaimAtATime() throws Exception {
        Clock ahead = Clock.offset(Clock.systemUTC(), java.time.Duration.ofMinutes(1));
        Inbox first = new Inbox(dir, "w1", 0, ahead);
        Inbox second = new Inbox(dir, "w2", 0, ahead);
        Path one = claimed(first, "one.xml");
        Path two = claimed(second, "two.xml");
        assertThat(first.holdContent(one, SHA)).isEmpty();
        assertThat(second.holdContent(two, SHA)).contains(one);
        assertThat(first.holdContent(one, SHA)).as("held again, as after a restart").isEmpty();
        assertThat(second.holder(SHA)).contains(one);

        first.toDone(one, SHA, "{}");
        assertThat(second.holder(SHA)).isEmpty();
        assertThat(second.holdContent(two, SHA)).isEmpty();

        Path three = claimed(first, "three.xml");
        assertThat(first.holdContent(three, SHA)).contains(two);
        Files.delete(two); // taken away by hand: its hold is let go
        assertThat(first.holdContent(three, SHA)).isEmpty();
        assertThat(first.holder(SHA)).contains(three);
    }
}
