package io.xmlingest.app.worker;

import io.xmlingest.app.AppSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.IoProblems;
import io.xmlingest.core.split.CompressedInput;
import io.xmlingest.core.split.FileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inbox directory and its lifecycle folders. A file is claimed by renaming it into this
 * worker's own {@code processing/<worker-id>/}: a rename within one file system is atomic, so of
 * two workers on one inbox exactly one gets each file, and after a crash a worker finds its
 * unfinished files where it left them. Finished files go to {@code done/} or {@code failed/} with
 * a JSON report beside them.
 */
final class Inbox {

    private static final Logger LOG = LoggerFactory.getLogger(Inbox.class);

    private static final long ABANDONED_COPY_MILLIS = 3_600_000;

    private static final String MARKER = ".xmlingest-inbox";

    /**
     * How long one listing of the inbox serves claims. A file dropped after it waits for the next, and a
     * listing of files that take minutes each would otherwise hold it back for hours. Listing 10,000
     * files took about 40 ms here: once every few seconds, not once per file.
     */
    static final long LISTING_MAX_AGE_MILLIS = 5_000;

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Path dir;
    private final Path processing;
    private final Path done;
    private final Path failed;
    private final Path sharded;
    private final long settleMillis;
    private final Clock clock;
    // Inbox entries that can never be taken, each told of once while it is there.
    private final Set<String> toldOfSkipping = ConcurrentHashMap.newKeySet();
    // Files modified ahead of this machine's clock, each told of once while it waits.
    private final Set<String> toldOfFuture = ConcurrentHashMap.newKeySet();
    static final long FUTURE_TOLERANCE_MILLIS = 5_000;
    // Complete files of the last listing not yet claimed, oldest first, and when it was made (see claimNext).
    private final ArrayDeque<Path> listed = new ArrayDeque<>();
    private long listedAt;
    // Files the worker could not claim while the inbox itself was fine (one it may not move: immutable, another
    // user's under a sticky bit), by name, with when to try each again: the others are taken meanwhile.
    private final Map<String, Long> stuck = new ConcurrentHashMap<>();
    static final long STUCK_RETRY_MILLIS = 60_000;

    /** How a file is claimed: an atomic rename into processing/; another only in tests, to make one fail. */
    interface Mover {
        void move(Path from, Path to) throws IOException;
    }

    private Mover claimMover = (from, to) -> Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);

    /** For tests: claims move files this way. */
    void claimMover(Mover mover) {
        this.claimMover = mover;
    }

    Inbox(Path inboxDir, String workerId, long settleMillis, Clock clock) {
        // Absolute, as the paths of shared work orders are (they travel as URIs): a file in sharded/ named by one
        // must be known for one of ours, or it went to done/ under its sharded/ name, file id first.
        Path dir = inboxDir.toAbsolutePath().normalize();
        this.dir = dir;
        this.processing = dir.resolve("processing").resolve(workerId);
        this.done = dir.resolve("done");
        this.failed = dir.resolve("failed");
        this.sharded = dir.resolve("sharded");
        this.settleMillis = settleMillis;
        this.clock = clock;
        try {
            makeFolders();
            writeMarker();
            deleteAbandonedCopies(done);
            deleteAbandonedCopies(failed);
        } catch (IOException e) {
            throw new ConfigException(AppSettings.INBOX_DIR.key(), "cannot prepare the inbox " + dir.toAbsolutePath()
                    + " (its processing/, done/, failed/ and sharded/ folders): " + IoProblems.why(e));
        }
    }

    /**
     * Copies into done/ or failed/ on another file system that a kill cut short (see moveInto): their
     * files are still in processing/ and are moved again. One written to within the hour may be another
     * worker's, under way.
     */
    private void deleteAbandonedCopies(Path folder) {
        // Tidying only: nothing here may stop a start (another worker may rename its copy while this one looks).
        try (DirectoryStream<Path> copies = Files.newDirectoryStream(folder, ".*.moving")) {
            for (Path copy : copies) {
                try {
                    if (clock.millis() - Files.getLastModifiedTime(copy).toMillis() > ABANDONED_COPY_MILLIS) {
                        Files.deleteIfExists(copy);
                        LOG.info("deleted {}, a copy into {} that a stopped worker left unfinished", copy, folder);
                    }
                } catch (IOException e) {
                    LOG.warn("cannot delete {}, a copy a stopped worker may have left: {}", copy, IoProblems.why(e));
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot look in {} for copies a stopped worker left: {}", folder, IoProblems.why(e));
        }
    }

    /** A hidden file that makes the inbox known again after it was away (see prepareAgain); never taken. */
    private Path marker() {
        return dir.resolve(MARKER);
    }

    private void writeMarker() throws IOException {
        try {
            Files.writeString(marker(), "the inbox of xmlingest workers, who know it again by this file\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            // written by an earlier start, or by another worker of the inbox
        }
    }

    private void makeFolders() throws IOException {
        Files.createDirectories(processing);
        Files.createDirectories(done);
        Files.createDirectories(failed);
        Files.createDirectories(sharded);
    }

    /**
     * Makes the worker's folders again once the inbox is back after it could not be listed. Unlike
     * at start, the inbox itself is not made: gone while the worker runs, it is more likely an unmounted
     * volume than a mistake, and files written to the folder beneath a mount point would be lost to it.
     */
    void prepareAgain() {
        if (!Files.isDirectory(dir)) {
            throw gone();
        }
        try {
            if (!Files.exists(marker())) {
                // The folder at the inbox's path is not the inbox the worker started with: a mount point with its
                // volume away, say. Folders made there would be hidden by the volume once it is back, with whatever
                // the worker left in them, so it waits for the inbox itself.
                throw new InboxUnavailableException("the inbox " + dir.toAbsolutePath() + " is not the one this worker "
                        + "started with (its " + MARKER + " is gone, as when its volume is unmounted): it waits for that "
                        + "one; restart the worker to take this folder as its inbox");
            }
            makeFolders();
        } catch (IOException e) {
            throw unavailable("cannot make the worker's folders in the inbox", dir, e);
        }
    }

    /** The inbox itself gone is what to say, rather than which of its folders was looked at first. */
    private InboxUnavailableException unavailable(String doing, Path where, IOException e) {
        return Files.isDirectory(dir) ? new InboxUnavailableException(doing, where, e) : gone();
    }

    /** The inbox's own path names no directory: removed, or replaced by a file. */
    private InboxUnavailableException gone() {
        String path = dir.toAbsolutePath().toString();
        return new InboxUnavailableException("cannot list the inbox", dir, Files.exists(dir)
                ? new NotDirectoryException(path) : new NoSuchFileException(path));
    }

    Path dir() {
        return dir;
    }

    /** Files this worker claimed and has not finished: a previous run of it stopped or died. */
    List<Path> unfinished() {
        return list(processing, false);
    }

    /**
     * Claims the oldest complete file of the inbox, if there is one another worker has not taken.
     * One listing serves the claims that follow it for up to LISTING_MAX_AGE_MILLIS: listing stats every
     * file of the inbox, and an inbox holding thousands of small files would otherwise be listed whole
     * for each of them. Each file is looked at again as it comes up, since it may have been taken,
     * replaced or written to since; when none of a listing's files is left to take, or the listing has
     * aged, the inbox is listed afresh.
     */
    Optional<Path> claimNext() {
        if (clock.millis() - listedAt > LISTING_MAX_AGE_MILLIS) {
            listed.clear();
        }
        boolean fresh = listed.isEmpty();
        if (fresh) {
            relist();
        }
        Optional<Path> claimed = claimListed();
        if (claimed.isEmpty() && !fresh) {
            relist();
            claimed = claimListed();
        }
        return claimed;
    }

    private void relist() {
        listed.clear();
        listed.addAll(list(dir, true));
        listedAt = clock.millis();
        Set<String> names = new HashSet<>();
        listed.forEach(p -> names.add(p.getFileName().toString()));
        stuck.keySet().retainAll(names); // gone, or no longer settled: its next claim is its own
    }

    private Optional<Path> claimListed() {
        for (Path candidate = listed.poll(); candidate != null; candidate = listed.poll()) {
            Long retryAt = stuck.get(candidate.getFileName().toString());
            if (retryAt != null && clock.millis() < retryAt) {
                continue;
            }
            if (!stillSettled(candidate)) {
                continue;
            }
            Path target = processing.resolve(candidate.getFileName());
            if (Files.exists(target)) {
                continue; // a file of that name is still in hand; this one waits its turn
            }
            boolean moved = false;
            try {
                Path linkTarget = Files.isSymbolicLink(candidate) ? Files.readSymbolicLink(candidate) : null;
                // Left by a file of this name that ended while the worker died moving it on: not this file's. A stale
                // identity would make a failed file dropped again look finished, and move it back to failed/ untried.
                Files.deleteIfExists(crashSidecar(target));
                Files.deleteIfExists(sidecar(target));
                Files.deleteIfExists(legacyMarker(target));
                claimMover.move(candidate, target);
                moved = true;
                stuck.remove(candidate.getFileName().toString());
                if (linkTarget != null && !linkTarget.isAbsolute()) {
                    // A relative link moved one folder down names nothing: point the claimed one where the original did.
                    Files.delete(target);
                    Files.createSymbolicLink(target, dir.resolve(linkTarget).toAbsolutePath().normalize());
                }
                return Optional.of(target);
            } catch (NoSuchFileException | FileAlreadyExistsException e) {
                // another worker took it first
            } catch (AtomicMoveNotSupportedException e) {
                throw new IllegalStateException("the inbox " + dir + " does not support atomic renames, which claiming "
                        + "files safely needs", e);
            } catch (IOException e) {
                if (!moved && refusedToThisFile(e) && inboxIsFine()) {
                    // The file's trouble alone: it held up every file behind it, with the inbox reported DOWN.
                    String name = candidate.getFileName().toString();
                    if (stuck.put(name, clock.millis() + STUCK_RETRY_MILLIS) == null) {
                        LOG.warn("cannot claim {}: {}; it is left in the inbox and tried again every {} s, while the "
                                + "files behind it are taken (a file the worker may not move: another user's in an "
                                + "inbox with the sticky bit, or immutable)", candidate, IoProblems.why(e),
                                STUCK_RETRY_MILLIS / 1000);
                    }
                    continue;
                }
                // The inbox's trouble, not the file's: once it is back, the oldest file should not have lost its turn.
                listed.clear();
                throw unavailable("cannot claim", candidate, e);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether a failed claim's error is a refusal to move this one file (EACCES, EPERM), not the file system's
     * trouble (a full disk, an I/O error), which stays the inbox's.
     */
    private static boolean refusedToThisFile(IOException e) {
        return e instanceof java.nio.file.AccessDeniedException || (e instanceof java.nio.file.FileSystemException f
                && "Operation not permitted".equals(f.getReason()));
    }

    /** Whether the inbox and this worker's processing/ are there and writable, so a failed claim is the file's own. */
    private boolean inboxIsFine() {
        return Files.isDirectory(dir) && Files.isWritable(dir) && Files.isDirectory(processing)
                && Files.isWritable(processing);
    }

    /** Files left in the inbox because they could not be claimed (see claimListed), by name. */
    Set<String> stuck() {
        return Set.copyOf(stuck.keySet());
    }

    /** Whether a file listed a while ago is still a regular file, not modified within the settle time. */
    private boolean stillSettled(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return a.isRegularFile() && clock.millis() - a.lastModifiedTime().toMillis() >= settleMillis;
        } catch (IOException e) {
            return false; // taken by another worker, or removed; a listing names it again if it is back
        }
    }

    private List<Path> list(Path where, boolean settledOnly) {
        List<Listed> files = new ArrayList<>();
        long now = clock.millis();
        Set<String> skipped = new HashSet<>();
        Set<String> future = new HashSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(where)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (name.startsWith(".") || name.endsWith(".part") || name.endsWith(".tmp")) {
                    continue;
                }
                if (where.equals(dir) && !encodable(p)) {
                    skipped.add(name);
                    tellOfSkipping(name, "named in characters this JVM cannot write back into a file name (its "
                            + "file name encoding is " + System.getProperty("sun.jnu.encoding") + "; start the worker "
                            + "with a UTF-8 locale, such as LANG=C.UTF-8), so its claim, report and sidecars cannot be "
                            + "named");
                    continue;
                }
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (NoSuchFileException e) {
                    if (where.equals(dir) && Files.isSymbolicLink(p)) {
                        skipped.add(name);
                        tellOfSkipping(name, "a symbolic link to nothing");
                    }
                    continue;
                }
                if (!a.isRegularFile()) {
                    if (where.equals(dir) && !isOwnFolder(p)) {
                        skipped.add(name);
                        tellOfSkipping(name, a.isDirectory() ? "a directory (files in it are not looked at)"
                                : "not a regular file (a pipe, a socket or a device)");
                    }
                    continue;
                }
                if (settledOnly && now - a.lastModifiedTime().toMillis() < settleMillis) {
                    long ahead = a.lastModifiedTime().toMillis() - now;
                    if (where.equals(dir) && ahead > FUTURE_TOLERANCE_MILLIS) {
                        future.add(name);
                        if (toldOfFuture.add(name)) {
                            // It waited without a word, with the worker reported healthy.
                            LOG.warn("{} in the inbox was modified {} s in the future by this machine's clock (clock skew, "
                                    + "or a copy that kept its time): it is taken once that time is {} past", name,
                                    ahead / 1000, AppSettings.INBOX_SETTLE_MS.key());
                        }
                    }
                    continue;
                }
                files.add(new Listed(p, a.lastModifiedTime().toMillis()));
            }
        } catch (IOException e) {
            throw unavailable("cannot list", where, e);
        }
        if (where.equals(dir)) {
            toldOfSkipping.retainAll(skipped);
            toldOfFuture.retainAll(future);
        }
        // By the times read while listing: reading them again while sorting cost a file system call per comparison,
        // and a time that changed mid-sort could break the comparator's contract.
        files.sort(Comparator.comparingLong(Listed::modified).thenComparing(f -> f.path().getFileName()));
        return files.stream().map(Listed::path).toList();
    }

    private record Listed(Path path, long modified) {
    }

    /**
     * Whether names made from the file's can be file names: under a locale that is not UTF-8, a name
     * with bytes outside it decodes to characters that cannot be encoded back, and building its
     * sidecar's name threw, stopping the worker on every start before the file was claimed.
     */
    private static boolean encodable(Path file) {
        try {
            crashSidecar(file);
            return true;
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    /** Files of the inbox modified ahead of this machine's clock, that a warning has named while they wait. */
    Set<String> ahead() {
        return Set.copyOf(toldOfFuture);
    }

    /** Entries of the inbox that are never taken and that a warning has named, while they are there. */
    Set<String> leftAlone() {
        return Set.copyOf(toldOfSkipping);
    }

    /** An operator who put it there would otherwise never learn that it is never taken. */
    private void tellOfSkipping(String name, String what) {
        if (toldOfSkipping.add(name)) {
            LOG.warn("{} in the inbox is {}: it is left alone; the worker takes regular files only", name, what);
        }
    }

    private boolean isOwnFolder(Path p) {
        return p.equals(processing.getParent()) || p.equals(done) || p.equals(failed) || p.equals(sharded);
    }

    /** Where {@link #toSharded} puts a claimed file. */
    Path shardedPath(Path claimed, String fileId) {
        return sharded.resolve(fit(fileId + "." + claimed.getFileName(), ""));
    }

    /**
     * Moves a claimed file to {@code sharded/}, where every worker of a group reads its shards, under
     * a name that starts with its file id; empty when that content is there already (being ingested).
     */
    Optional<Path> toSharded(Path claimed, String fileId) {
        Path target = shardedPath(claimed, fileId);
        try {
            // A compressed file's plain copy first, so that a file in sharded/ always has its copy beside it. Same name,
            // same content: replacing one there (a worker that died between the two moves) changes nothing.
            Path copy = CompressedInput.copyBeside(claimed, fileId);
            if (Files.isRegularFile(copy) && !Files.exists(target)) {
                Files.move(copy, CompressedInput.copyBeside(target, fileId), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            }
            // A link, then the claim removed: a rename would silently replace a file of that name that
            // another worker put there meanwhile, and a link fails instead.
            Files.createLink(target, claimed);
            Files.delete(claimed);
            Files.deleteIfExists(sidecar(claimed));
            Files.deleteIfExists(crashSidecar(claimed));
            return Optional.of(target);
        } catch (NoSuchFileException | FileAlreadyExistsException e) {
            return Optional.empty(); // another worker of the group took it over, or has that content in hand
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + claimed + " to " + sharded, e);
        }
    }

    /**
     * Takes over the files every worker of a group has claimed but not yet moved to
     * {@code sharded/}: a worker that died while hashing one would leave it there for good, since
     * in a group no worker's id needs to come back. A claim taken from a worker still at it costs
     * that worker nothing but a hash: whichever moves the file on first wins, the other lets go.
     */
    void takeOverClaims(long olderThanMillis) {
        Path all = processing.getParent();
        try (DirectoryStream<Path> owners = Files.newDirectoryStream(all)) {
            for (Path owner : owners) {
                if (owner.equals(processing) || !Files.isDirectory(owner)) {
                    continue;
                }
                for (Path claimed : list(owner, false)) {
                    Path mine = processing.resolve(claimed.getFileName());
                    if (Files.exists(mine) || ageMillis(claimed) < olderThanMillis) {
                        continue;
                    }
                    try {
                        Files.move(claimed, mine, StandardCopyOption.ATOMIC_MOVE);
                        // A compressed file's copy (or part of one) stays behind: the new owner inflates it again.
                        CompressedInput.deleteCopies(claimed);
                    } catch (IOException e) {
                        // taken by someone else meanwhile, or a name this worker holds already: it waits
                    }
                }
            }
        } catch (IOException e) {
            throw unavailable("cannot list", all, e);
        }
    }

    /** Files cut into shards that are not finished, or whose end was committed but not yet moved. */
    List<Path> sharded() {
        return list(sharded, false);
    }

    /** The ids of the workers of this inbox: this one, and every one that has a {@code processing/} folder here. */
    Set<String> workerIds() {
        Set<String> ids = new HashSet<>();
        ids.add(processing.getFileName().toString());
        for (Path owner : processingFolders()) {
            ids.add(owner.getFileName().toString());
        }
        return ids;
    }

    /**
     * The file ids of what any worker has in hand here: recorded beside the files in every
     * {@code processing/} folder, and in the names of {@code sharded/} files. Their checkpoints are
     * needed until the files are moved on, however long ago they completed.
     */
    Set<String> fileIdsInHand() {
        Set<String> ids = new HashSet<>();
        for (Path owner : processingFolders()) {
            for (Path claimed : list(owner, false)) {
                recordedIdentity(claimed).ifPresent(r -> ids.add(r.sha256()));
            }
        }
        for (Path file : sharded()) {
            ids.add(shardedFileId(file));
        }
        return ids;
    }

    /** Every worker's {@code processing/<worker-id>/} folder in this inbox, this worker's included. */
    private List<Path> processingFolders() {
        List<Path> folders = new ArrayList<>();
        try (DirectoryStream<Path> owners = Files.newDirectoryStream(processing.getParent())) {
            for (Path owner : owners) {
                if (Files.isDirectory(owner)) {
                    folders.add(owner);
                }
            }
        } catch (IOException e) {
            throw unavailable("cannot list", processing.getParent(), e);
        }
        return folders;
    }

    /**
     * How long ago a file came where it is: a rename changes a file's ctime, not its modification
     * time. Where there is no ctime, the modification time stands in; a file gone meanwhile is 0.
     */
    long ageMillis(Path file) {
        try {
            Object ctime;
            try {
                ctime = Files.getAttribute(file, "unix:ctime");
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                ctime = Files.getLastModifiedTime(file);
            }
            return clock.millis() - ((FileTime) ctime).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The file id a file in {@code sharded/} is named with. */
    static String shardedFileId(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, Math.max(0, name.indexOf('.')));
    }

    /** The name a file in {@code sharded/} had in the inbox. */
    static String shardedName(Path file) {
        String name = file.getFileName().toString();
        return name.substring(name.indexOf('.') + 1);
    }

    /** The identity this worker recorded for a claimed file when it started on it, if any. */
    Optional<RecordedIdentity> recordedIdentity(Path claimed) {
        for (Path sidecar : List.of(sidecar(claimed), legacyMarker(claimed))) {
            try {
                return Optional.of(RecordedIdentity.decode(Files.readString(sidecar, StandardCharsets.UTF_8)));
            } catch (NoSuchFileException e) {
                // not this one
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + sidecar, e);
            }
        }
        return Optional.empty();
    }

    /**
     * Records the identity of a claimed file, before anything of it is published, in a hidden
     * file beside it that the inbox never takes; written whole or not at all.
     */
    void recordIdentity(Path claimed, RecordedIdentity identity) {
        Path sidecar = sidecar(claimed);
        try {
            writeWhole(sidecar, claimed.resolveSibling(fit("." + claimed.getFileName(), ".identity.tmp")),
                    identity.encode());
            Files.deleteIfExists(legacyMarker(claimed));
        } catch (IOException e) {
            // A full disk, say: not the file's fault, and nothing of it is published yet.
            throw unavailable("cannot write", sidecar, e);
        }
    }

    /** How often the claimed file has stopped the worker, if it has; unreadable counts as never. */
    Optional<FileCrashes> crashes(Path claimed) {
        return crashes(claimed, -1);
    }

    /**
     * How often shard {@code shard} of a file in {@code sharded/} (-1: a claimed file as a whole)
     * has stopped a worker, if it has; unreadable counts as never. Kept beside the file, which every
     * worker of a group reads, so that the count follows the shard from worker to worker.
     */
    Optional<FileCrashes> crashes(Path file, int shard) {
        Path sidecar = crashSidecar(file, shard);
        try {
            return FileCrashes.decode(Files.readString(sidecar, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            LOG.warn("cannot read {}: {}; the earlier crashes are not counted", sidecar, e.toString());
            return Optional.empty();
        }
    }

    /**
     * Records a crash beside the claimed file, whole or not at all. Called as the worker stops on an
     * error, so a failure to write is logged, not thrown over the error being reported.
     */
    void recordCrash(Path claimed, FileCrashes crashes) {
        recordCrash(claimed, -1, crashes);
    }

    /** Records a crash of shard {@code shard} of a file in {@code sharded/} (-1: a claimed file as a whole). */
    void recordCrash(Path file, int shard, FileCrashes crashes) {
        Path sidecar = crashSidecar(file, shard);
        try {
            writeWhole(sidecar, file.resolveSibling(fit("." + file.getFileName(), crashSuffix(shard) + ".tmp")),
                    crashes.encode());
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot write {}: {}; this crash is not counted", sidecar, e.toString());
        }
    }

    /** Deletes the crash counts of a sharded file's shards, as the file leaves {@code sharded/}. */
    static void forgetShardCrashes(Path file, int shards) {
        for (int i = 0; i < shards; i++) {
            try {
                Files.deleteIfExists(crashSidecar(file, i));
            } catch (IOException e) {
                LOG.warn("cannot delete {}: {}", crashSidecar(file, i), e.toString());
            }
        }
    }

    /**
     * Writes a sidecar whole or not at all, through {@code tmp} (named apart, as a long name's sidecar
     * has no room left for a suffix): a crash mid-write leaves only the tmp, which nothing reads.
     */
    private static void writeWhole(Path sidecar, Path tmp, String text) throws IOException {
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, sidecar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            deleteQuietly(tmp); // a full disk must not leave it behind for good
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // nothing reads it: it is left
        }
    }

    Path toDone(Path claimed, String fileId, String reportJson) {
        return finish(claimed, done, fileId, reportJson);
    }

    Path toFailed(Path claimed, String fileId, String reportJson) {
        return finish(claimed, failed, fileId, reportJson);
    }

    /** Moves the file and writes its report; a name already there gets a time stamp and the file id's start. */
    private Path finish(Path claimed, Path folder, String fileId, String reportJson) {
        String name = claimed.getParent() != null && claimed.getParent().equals(sharded) ? shardedName(claimed)
                : claimed.getFileName().toString();
        String again = "";
        if (Files.exists(folder.resolve(name))) {
            again = "." + LocalDateTime.now(clock).format(STAMP) + "-"
                    + (fileId == null ? "unknown" : fileId.substring(0, Math.min(12, fileId.length())));
        }
        Path target = folder.resolve(fit(name, again));
        try {
            if (!Files.isDirectory(dir)) {
                throw gone(); // not made again here: see prepareAgain
            }
            // Deleted by hand while the file was ingested: made again rather than stop the worker on a finished file.
            Files.createDirectories(folder);
            // Cut from the file's own name, so a long one's report keeps the time stamp and mark its file has.
            Path report = folder.resolve(fit(name, again + ".report.json"));
            // Two workers of a group may move the same ended file at once: their reports must not mix.
            Path tmp = folder.resolve(fit(name, again + ".report.json." + UUID.randomUUID() + ".tmp"));
            Files.writeString(tmp, reportJson, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, report, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                // Tried again every second while it fails: each try's copy was left behind.
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException left) {
                    e.addSuppressed(left);
                }
                throw e;
            }
            // Before the move: a crash between the two leaves a file that inflates again, not a copy of nothing.
            CompressedInput.deleteCopies(claimed);
            // Before the move, and after the file's end was committed: a copy waiting for this content then finds it
            // ended. A crash between the two leaves the file here, and its next run holds the content again.
            releaseContent(claimed, fileId);
            moveInto(claimed, target);
            Files.deleteIfExists(sidecar(claimed));
            Files.deleteIfExists(crashSidecar(claimed));
            Files.deleteIfExists(legacyMarker(claimed));
            if (folder.equals(done)) {
                forgetFailure(name, fileId);
            }
            return target;
        } catch (IOException e) {
            // Its end is committed: once the inbox is back, the file is found unmoved and only moved.
            throw unavailable("cannot move " + claimed.getFileName() + " to", folder, e);
        }
    }

    /**
     * Moves a finished file into done/ or failed/. Those may be links to another file system (a
     * larger or archived mount), where a rename cannot go: the file is then copied whole under a
     * hidden name there, renamed, and deleted here. A crash before the delete leaves it here, and the
     * move is done again.
     */
    private static void moveInto(Path claimed, Path target) throws IOException {
        try {
            Files.move(claimed, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Path tmp = target.resolveSibling(fit("." + target.getFileName(), "." + UUID.randomUUID() + ".moving"));
            try {
                Files.copy(claimed, tmp);
                // On disk before the original is deleted: a power cut must not leave neither.
                try (FileChannel written = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                    written.force(true);
                }
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            Files.delete(claimed);
        }
    }

    /**
     * Deletes the report a failed file left in {@code failed/} once the same content, taken out of
     * it and dropped into the inbox again, has completed: it said a file failed that no longer has,
     * and stayed there, alone, for whoever watches that folder. A report of other content, or one
     * whose file is still there, stays.
     */
    private void forgetFailure(String name, String fileId) {
        Path report = failed.resolve(fit(name, ".report.json"));
        if (fileId == null || Files.exists(failed.resolve(name)) || !Files.exists(report)) {
            return;
        }
        try {
            if (FileReport.fileIdOf(Files.readString(report, StandardCharsets.UTF_8)).filter(fileId::equals).isPresent()) {
                Files.delete(report);
                LOG.info("deleted {}: its file, dropped again, has now completed", report);
            }
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", report, e.toString());
        }
    }

    /**
     * Takes hold of a content for a claimed file, before anything of it is published: a hold is a
     * file in {@code processing/} named by the content's id that names the claim holding it, made
     * by a hard link, which fails when the name exists, so of two workers with copies of one content
     * exactly one holds it. Empty when this claim holds it (now, or since before a restart); else
     * the other claim that does, which the caller waits for. A hold whose claim is gone (moved on
     * by hand) is let go.
     */
    Optional<Path> holdContent(Path claimed, String fileId) {
        Path hold = contentHold(fileId);
        String me = processing.getFileName() + "/" + claimed.getFileName();
        for (int attempt = 0; attempt < 3; attempt++) {
            Path tmp = processing.getParent().resolve(".hold-" + UUID.randomUUID() + ".tmp");
            try {
                try {
                    Files.writeString(tmp, me, StandardCharsets.UTF_8);
                    Files.createLink(hold, tmp);
                    return Optional.empty();
                } finally {
                    deleteQuietly(tmp);
                }
            } catch (FileAlreadyExistsException e) {
                Optional<Path> holder = holder(fileId);
                if (holder.isPresent() && !Files.exists(holder.get())) {
                    letGo(hold); // its claim moved on by hand: let go, and try again
                } else if (holder.isPresent()) {
                    return holder.filter(h -> !h.equals(claimed)); // this claim's own, since before a restart: held
                }
            } catch (IOException e) {
                throw unavailable("cannot write", hold, e);
            }
        }
        return heldElsewhere(claimed, fileId);
    }

    private static void letGo(Path hold) {
        try {
            Files.deleteIfExists(hold);
        } catch (IOException e) {
            // another worker let it go first, or will
        }
    }

    /** The other claim, still in processing/, that holds {@code fileId}'s content rather than {@code claimed}; if any. */
    Optional<Path> heldElsewhere(Path claimed, String fileId) {
        return holder(fileId).filter(h -> !h.equals(claimed) && Files.exists(h));
    }

    /** The claim that holds {@code fileId}'s content (see {@link #holdContent}), if any: another worker's, or this one's. */
    Optional<Path> holder(String fileId) {
        try {
            String held = Files.readString(contentHold(fileId), StandardCharsets.UTF_8).strip();
            return held.isEmpty() ? Optional.empty() : Optional.of(processing.getParent().resolve(held));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Lets go of the content {@code claimed} holds, if it holds one: as the claim leaves processing/. */
    private void releaseContent(Path claimed, String fileId) throws IOException {
        if (fileId != null && holder(fileId).filter(h -> h.equals(claimed)).isPresent()) {
            Files.deleteIfExists(contentHold(fileId));
        }
    }

    private Path contentHold(String fileId) {
        return processing.getParent().resolve(".content-" + fileId);
    }

    private static Path sidecar(Path claimed) {
        return claimed.resolveSibling(fit("." + claimed.getFileName(), ".identity"));
    }

    private static Path crashSidecar(Path claimed) {
        return crashSidecar(claimed, -1);
    }

    private static Path crashSidecar(Path file, int shard) {
        return file.resolveSibling(fit("." + file.getFileName(), crashSuffix(shard)));
    }

    private static String crashSuffix(int shard) {
        return shard < 0 ? ".crashes" : ".shard-" + shard + ".crashes";
    }

    /**
     * {@code base + suffix}, cut to a file name's 255 bytes where it is longer ({@link FileNames#fit}),
     * so the name of a file's report or sidecar can be made, and found again, whatever the length of
     * the file's own name. Without this, a file whose name was a few bytes short of the limit could
     * not be finished, and stopped the worker on every start.
     */
    static String fit(String base, String suffix) {
        return FileNames.fit(base, suffix, FileNames.NAME_MAX);
    }

    /** Where workers before the identity sidecar kept the hash alone; still read, so an upgrade resumes. */
    private static Path legacyMarker(Path claimed) {
        return claimed.resolveSibling(fit("." + claimed.getFileName(), ".fileid"));
    }
}
