package logs

import (
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/utils/clock"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// historySize is how many attempts a key remembers, as in the instrument.
const historySize = api.HistorySize

// quietGrace is how long past its expected retry a key may stay silent
// before it is unknown: the timestamps of the default encoder have whole
// seconds, and the retry needs a free worker.
const quietGrace = 2 * time.Second

// Store reconstructs per-key backoff from a controller's log records. It is
// safe for concurrent use: streams add, the endpoint reads.
type Store struct {
	opts Options

	mu   sync.Mutex
	keys map[keyID]*entry
	// pending and handled are attempt.go's: bare failures waiting, and
	// when each key's handler last logged a failure.
	pending []pendingBare
	handled map[string]handledAt
	// finished are the syncs' ends held until no failure follows
	// (finished.go).
	finished []pendingBare
	// handledIDs are the reconcileIDs of named dialects' failure lines, and
	// their lines (reconcileidline.go).
	handledIDs handledIDs
	// readingHeld says a saved read holds its records for time order;
	// cands are the generic reader's candidates waiting for their
	// template's evidence (evidence.go).
	cands candidates
	// order is what it knows of its lines' order (order.go).
	readingHeld bool
	order       ordering
	// replicas tell replica_set.go's two controllers apart (kcmreplica.go);
	// sites two queues whose files have one name (sites.go).
	replicas replicaHints
	sites    siteNotes
	// counts are failure counts stated on a line of their own, waiting
	// for the failure line of their attempt (attempt.go).
	counts map[string]statedCount
	// causes are the CauseLines of keys, for a warning that follows.
	causes map[string]statedCause
	// keyErrs are the errors keys' failure lines stated, again the
	// candidate lines that stated one again (sameerror.go); keyErrKey is
	// the key looked up in keyErrs, built in place.
	keyErrs   map[string]*keyError
	again     map[int]keyError
	keyErrKey []byte
	// attemptKeys are the keys names-key lines named, by controller, and
	// aliases the keys failure lines' own names for objects are
	// (attemptkey.go).
	attemptKeys map[string]attemptKey
	// linesApplied counts the lines applied, and lastEvent is the object
	// of the last event line among them (eventkey.go); only the goroutine
	// that applies lines in order touches them.
	linesApplied int
	lastEvent    recentEvent
	// applyNow and applyLimit are the now apply was last given and the
	// latest plausible time at it (plausibleBy): a parallel read gives it
	// one now a chunk, and the limit was added again on every record. The
	// same goroutine alone touches them.
	applyNow, applyLimit time.Time
	// logged are the last lines that named a logger, for a work-queue
	// handler's line naming no key that follows (handlerlogger.go); the
	// same goroutine alone touches them.
	logged loggedLines
	// unread are the recent failure lines that named no key, for the
	// failure that may wrap one (innercand.go); the same goroutine alone
	// touches them.
	unread []unreadLine
	// before is the last line that looked like a failure and was not
	// read, for a failure just after it that names no key (keybefore.go).
	before  lineBefore
	aliases map[string]string
	// explainQ holds --explain-lines' readings while a bare failure waits,
	// so they are given in order and say what the wait decided;
	// mergedInto maps a line counted on another to that line (attempt.go).
	explainQ   []LineReading
	mergedInto map[int]int
	// innerOf maps a line read as an inner cause to what took it
	// (innercand.go); while a line that may be one waits for its wrapper,
	// the readings wait up to line innerHoldTo.
	innerOf map[int]innerCause
	// keyedAfter holds the lines whose failure took the key of the line
	// just after them (keyafter.go): their "not read" reading is dropped.
	keyedAfter  map[int]bool
	innerHoldTo int
	// said is each key's last failure line, and echoOf the HandleError
	// lines read as its echo, by line (echo.go).
	said   map[string]*saidFailure
	echoOf map[int]int
	// lastSaid is the entry echoLocked set last, compared before said is
	// looked up; always one of said's (said is started anew only before
	// an entry is set).
	lastSaid *saidFailure
	// giveUpOf is each HandleError line read as the error of the give-up
	// line before it (giveup.go), for ExplainLines.
	giveUpOf map[int]int
	echoKey  []byte // the key looked up in said, built in place
	// streakNote is what the last failure applied said of a fresh ramp
	// (freshramp.go), for its line's --explain-lines reading.
	streakNote string
	// applied, when set (tests), sees each record as it is applied.
	applied     func(Record)
	controllers map[string]*controllerInfo
	first, last time.Time // oldest and newest record
	// lastLag is how far behind the clock the newest record was when it
	// was added (Options.DatedAfter).
	lastLag time.Duration
	// asSaved keeps a saved log's present (its newest line) while it is
	// read on as it grows (ReadOnAsSaved).
	asSaved bool
	verbose bool // a V(5) line was seen: successes are logged
	records int
	lines   atomic.Int64
	// ended says the live log read has ended (MarkEnded); stopped, why it
	// stopped short (MarkStopped).
	ended   atomic.Bool
	stopped atomic.Pointer[string]
	// evicted counts the keys dropped past MaxKeys, from evictedSince (the
	// time of the line that first made room): evict.go.
	evicted      atomic.Int64
	evictedSince atomic.Pointer[time.Time]
	// candidates are the next keys to evict, best first (evict.go).
	candidates []victim
	// dated is the newest time of the log read from a line that carries its
	// year (times.go): a year-less klog header takes its year from it.
	dated atomic.Pointer[datedTime]
	rate  errorRate
	diag  diagnostics // what the reader understood (diagnostics.go)
	// tally is diag's counts of records a parallel read's applier has not
	// added yet (diagTally); like linesApplied, only the goroutine that
	// applies lines in order touches it.
	tally diagTally
	// markers are the markers of every loaded dialect (dialectMarkers).
	markers *markerSet
	// batchNow is the clock read once for a batch of held records
	// (flushHeld), zero otherwise: each was judged plausible when read, at
	// an earlier time, so a record's plausibility is the same.
	batchNow time.Time
	// batchLimit is batchNow plus futureSlack: the time a record of the
	// batch may not pass (plausibleBy), added once, not once a record.
	batchLimit time.Time
	// lastController is the controller applyLocked met last, and its
	// info: a log's records are mostly one controller's, and its name the
	// interner's string, so comparing is cheaper than hashing it.
	lastController     string
	lastControllerInfo *controllerInfo
	// lastEntry is the entry entryLocked gave last: a key's lines come in
	// runs (its reconcile's start, then its end), and its strings are the
	// interner's, so comparing is cheaper than hashing both.
	lastEntry *entry
	recent    recentEntries // recordEntryLocked's
	notes     keyNotes      // where keys were found last: keynote.go
	classes   classCache    // the classes of the errors applied
}

type keyID struct{ controller, key string }

type controllerInfo struct {
	group, kind string
	// limiter is what the log's failures say of the controller's limiter.
	limiter limiterGuess
	// own is the per-item limiter the controller's project sets, when its
	// dialect knows it (Record.Limiter), and project the project's name
	// (the dialect's family): zero, and the store's Options.Limiter holds.
	own     Limiter
	project string
	// successesHow is the dialect's advice for the controller's lines
	// (successesAdvice); successesOwn says it is the controller's alone
	// (api.Controller.SuccessesHow), not the log's.
	successesHow string
	successesOwn bool
	// advice is successesAdvice of the last record of the controller
	// applied (adviceOwn its own), advisedFor its dialect and
	// advisedSampled its Sampled.
	advice, advisedFor                 string
	advised, advisedSampled, adviceOwn bool
}

// NewStore returns an empty store.
func NewStore(opts Options) *Store {
	if opts.MaxKeys <= 0 {
		opts.MaxKeys = DefaultMaxKeys
	}
	if opts.Limiter == (Limiter{}) {
		opts.Limiter = DefaultLimiter
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	return &Store{opts: opts, keys: map[keyID]*entry{}, controllers: map[string]*controllerInfo{}, markers: dialectMarkers(opts.Dialects)}
}

// entry is one key's reconstruction.
type entry struct {
	controller, key string
	state           api.State // as last logged: backoff, scheduled, queued, running, failed, idle

	failures, totalFailures, reconciles int
	firstFailure, nextRetry             time.Time
	delay                               time.Duration
	delaySource                         string
	lastErr                             *api.ErrorRecord
	sameErr                             int
	lastSuccess, lastReconcile          time.Time
	lastDuration                        time.Duration
	startedAt, queuedAt                 time.Time
	// startID is the reconcileID of the start being run, a copy kept in
	// a buffer of the entry's (shortstrings.go).
	startID        []byte
	startTrigger   string // why the running reconcile ran
	startPreempted bool
	lastSeen       time.Time
	history        history
	// logLine is the line the last failure was read from, when the generic
	// reader read it (Record.Line).
	logLine string
	// logEvidence is what decided that line was a failure (Record.Evidence).
	logEvidence string
	// controllerWords are the words of the last failure's line its
	// controller's name was read from (Record.ControllerWords).
	controllerWords string
	// delayWords are the words of the last failure's line that stated its
	// delay (Record.RetryWords), while that delay stands.
	delayWords string

	// What the last failure said of the next retry: the limiters' delays
	// and the spacing (est), whether the line stated it, and its time.
	est    estimate
	stated bool
	failAt time.Time
	// lastFailAt and lastGap are the key's last failure line's time and
	// its spacing from the one before, streaks aside; ended is the streak
	// endInferred ended at the last failure (its count and start), restored
	// when the key's failures turn out to come on a steady period.
	lastFailAt time.Time
	lastGap    time.Duration
	ended      struct {
		failures int
		first    time.Time
	}
	// earlier is a retry the failure's event preempted, still pending.
	earlier time.Time
	// lastReset is the last logged forget of the key; released says that
	// forget requeued it at once, so that its next reconcile ran for it
	// (by releasedBy, for releasedWhy).
	lastReset  *api.Reset
	countReset bool // a forget reset the count within the streak
	// ramp is the run of failures a fresh ramp may be (freshramp.go).
	ramp ramp
	// guessedAt is the last failure's time when it was only a guessed
	// restart (guessedrestart.go): the count went on through it.
	guessedAt time.Time
	// doubling counts the key's last gaps that each doubled the one before
	// (noteDoubling), streaks aside.
	doubling int
	// unlogged says the log read so far shows no success (no V(5) line):
	// why an attempt ran is inferred (see inferred); endedUnlogged that
	// endInferred has just ended the streak.
	unlogged, endedUnlogged bool
	released                bool
	releasedBy, releasedWhy string
}

// entryLocked returns the key's entry, making room for a new one, and the
// time of its newest record before this one.
func (s *Store) entryLocked(controller, key string, at time.Time) (*entry, time.Time) {
	e := s.lastEntry
	if e == nil || e.key != key || e.controller != controller {
		id := keyID{controller, key}
		e = s.keys[id]
		if e == nil {
			if len(s.keys) >= s.opts.MaxKeys {
				s.lastEntry = nil // it may be evicted
				s.recent = recentEntries{}
				s.evictLocked(at)
			}
			e = &entry{controller: controller, key: key, state: api.StateIdle}
			s.keys[id] = e
		}
		s.lastEntry = e
	}
	return e, e.seen(at)
}

// sampledAtLocked is when the log first showed the sampler's signature
// (errorRate), unless it shows V(5) lines: controller-runtime turns
// sampling off at that level.
func (s *Store) sampledAtLocked() time.Time {
	if s.verbose {
		return time.Time{}
	}
	return s.rate.at()
}

// Len is the number of tracked keys.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.keys)
}
