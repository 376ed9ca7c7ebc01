package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

var corpusMisses = flag.Bool("corpus-misses", false, "TestCorpusScore: log the held-out batches' misses too")

// corpusKey is one expected failing key of a batch's expected.json: how
// many failure lines it has, the start of its last error, whether it was
// dropped, (where a line names it) its controller, and (where its last
// failure line states it) the delay before its next retry.
type corpusKey struct {
	Key        string `json:"key"`
	Count      int    `json:"count"`
	Err        string `json:"err"`
	Terminal   bool   `json:"terminal"`
	Controller string `json:"controller,omitempty"`
	// Delay is the delay its last failure line states (a Go duration: the
	// kubelet's "durationBeforeRetry 2m2s"); when set, the key is right
	// only with that delay, read as stated (delaySource "stated").
	Delay string `json:"delay,omitempty"`
}

// corpusScore is a batch read through Store.Read, as `kubectl backoff get
// --from-logs FILE` reads a file, against its answers.
type corpusScore struct {
	// expected counts the failing keys of the answers; found those read at
	// all; right those read with the right count, last error and terminal
	// state.
	expected, found, right int
	// falseOnNegatives counts keys read in a negative excerpt (one whose
	// answer is no key); extra counts keys read that no answer names,
	// negatives included.
	falseOnNegatives, extra int
	// misses says, per excerpt, what was wrong.
	misses []string
}

// scoreCorpus reads every excerpt of dir with its expected.json.
func scoreCorpus(t testing.TB, dir string) corpusScore {
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]corpusKey
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	files := make([]string, 0, len(want))
	for f := range want {
		files = append(files, f)
	}
	slices.Sort(files)
	var sc corpusScore
	for _, f := range files {
		log, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		// A saved file, as the CLI reads one (not Live): now is its newest
		// line; the clock dates year-less klog lines, and is after every
		// excerpt, as a reader's is: a dated line after it is implausible
		// and read untimed (times.go). Until stop 58 it was 2026-01-01,
		// before the excerpts run here on 2026-12-07, whose dated lines
		// (logrus, JSON) were all read untimed (batch16/1600: 20 failures
		// for 10, 10 as the CLI reads it).
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(corpusClock)})
		if _, _, err := s.Read(context.Background(), bytes.NewReader(log)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		_, keys := s.views("")
		sc.score(f, want[f], keys)
	}
	return sc
}

// corpusClock is the reading clock of TestCorpusScore: after every
// excerpt's lines.
var corpusClock = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// fit ranks a reading of an answer's key: its count and its error right
// beat its count alone, which beats neither (two controllers failing on one
// key, batch14/1420, are told apart by their errors).
func fit(g api.Key, w corpusKey) int {
	n := 0
	if g.TotalFailures == w.Count {
		n += 2
	}
	if g.LastError != nil && strings.HasPrefix(g.LastError.Message, w.Err) {
		n++
	}
	return n
}

// score compares one excerpt's keys with its answers. A key read under
// several controllers is found once; its other readings are extra.
func (sc *corpusScore) score(file string, want []corpusKey, got []api.Key) {
	used := make([]bool, len(got))
	for _, w := range want {
		sc.expected++
		best := -1
		for i, g := range got {
			if used[i] || g.Key != strings.TrimPrefix(w.Key, "/") {
				continue
			}
			if best < 0 || fit(g, w) > fit(got[best], w) {
				best = i
			}
		}
		if best < 0 {
			sc.misses = append(sc.misses, fmt.Sprintf("%s: %s not read", file, w.Key))
			continue
		}
		used[best] = true
		sc.found++
		g := got[best]
		var why []string
		if g.TotalFailures != w.Count {
			why = append(why, fmt.Sprintf("count %d, want %d", g.TotalFailures, w.Count))
		}
		if g.LastError == nil || !strings.HasPrefix(g.LastError.Message, w.Err) {
			last := "(none)"
			if g.LastError != nil {
				last = g.LastError.Message
			}
			why = append(why, fmt.Sprintf("last error %q, want prefix %q", last, w.Err))
		}
		if (g.State == api.StateFailed) != w.Terminal {
			why = append(why, fmt.Sprintf("state %s, terminal %v", g.State, w.Terminal))
		}
		if w.Delay != "" {
			if d, err := time.ParseDuration(w.Delay); err != nil || g.Delay.Duration != d || g.DelaySource != api.SourceStated {
				why = append(why, fmt.Sprintf("delay %v (%s), want %s stated", g.Delay.Duration, g.DelaySource, w.Delay))
			}
		}
		if len(why) == 0 {
			sc.right++
			continue
		}
		sc.misses = append(sc.misses, fmt.Sprintf("%s: %s (%s): %s", file, w.Key, g.Controller, strings.Join(why, "; ")))
	}
	for i, g := range got {
		if used[i] || (g.TotalFailures == 0 && g.LastError == nil) {
			// A key the log shows reconciled but never failing (its
			// reconcile's own start line, kapp-controller's info
			// "Reconciling" with request=, heldout8 815) claims no
			// failure: neither an answer nor a false key.
			continue
		}
		sc.extra++
		if len(want) == 0 {
			sc.falseOnNegatives++
		}
		sc.misses = append(sc.misses, fmt.Sprintf("%s: extra key %s %s (%d failures)", file, g.Controller, g.Key, g.TotalFailures))
	}
}

// TestCorpusScore scores the reader on the batches of real excerpts with
// answers counted by hand: the training batches (batch3 to batch13, whose shapes rules
// may be learnt from; their misses are printed) and the held-out batches
// (read only here, never to write a rule; only their scores are printed). The
// thresholds are a ratchet: each is the score last reached, so a change
// that reads fewer keys right, or any false key, fails.
func TestCorpusScore(t *testing.T) {
	for _, tt := range []struct {
		dir string
		// minRight is the ratchet on keys read right; maxExtra on keys
		// read that no answer names. No false key on a negative, ever.
		minRight, maxExtra int
		// heldOut hides the misses unless -corpus-misses: their lines are
		// not read to write rules.
		heldOut bool
	}{
		{dir: "testdata/batch3", minRight: 30, maxExtra: 0},
		// batch4: 18/18 until stop 62, when library-go's synthetic item
		// "key" stopped being a key (302, 303: their answers now none, the
		// decision in docs/log-mode.md, "Synthetic items"): 16/16, the
		// same keys right of fewer answers, not a key lost.
		{dir: "testdata/batch4", minRight: 16, maxExtra: 0},
		{dir: "testdata/batch5", minRight: 8, maxExtra: 0},
		// batch6 was held out from stop 39 to stop 51 (as testdata/heldout,
		// last held-out score 22/31) and is training since stop 52; 29/31
		// in stop 61 with subjectfield.go (100).
		{dir: "testdata/batch6", minRight: 29, maxExtra: 0},
		// batch7 (stop 53): a–m projects in no other README, answers read
		// before the reader ran; 24/27 in stop 61 with sameerror.go (745).
		{dir: "testdata/batch7", minRight: 24, maxExtra: 0},
		// batch8 (repositories n–z) was collected in stop 53 and is
		// training from the start.
		{dir: "testdata/batch8", minRight: 12, maxExtra: 0},
		// batch9 (stop 53): a–m projects in no other README, answers read
		// before the reader ran.
		{dir: "testdata/batch9", minRight: 19, maxExtra: 0},
		// batch10 was held out from stop 40 to stop 53 (as
		// testdata/heldout2, last held-out score 27/31) and is training
		// since stop 54.
		{dir: "testdata/batch10", minRight: 30, maxExtra: 0},
		// batch11 (stop 54): a–m projects in no other README, answers read
		// before the reader ran.
		{dir: "testdata/batch11", minRight: 9, maxExtra: 0},
		// batch12 (stop 56): a project in no other README, answers read
		// before the reader ran.
		{dir: "testdata/batch12", minRight: 1, maxExtra: 0},
		// batch13 (stop 57): a–m projects in no other README, answers
		// committed before the reader ran; first score 1/4, 3/4 with
		// keyafter.go, inlinecode.go and the "VERB [KIND] error" phrase;
		// 4/4 in stop 61 with retryclause.go (1301).
		{dir: "testdata/batch13", minRight: 4, maxExtra: 0},
		// batch14 (stop 57): kube-controller-manager and cloud-provider's
		// cloud-controller-manager run here against envtest's
		// kube-apiserver, answers committed before the reader ran; first
		// score 19/21, 21/21 with echo.go; 28/31 with 1420-1421 added,
		// 31/31 with "work item failed" item= and oneCause; 43/47 with
		// 1430-1432 added, 47/47 with bareClusterKey and errorGerund;
		// 55/58 with 1440 added, 57/58 with the err-as-message and
		// "PV NAME failed with" rules; 58/58 in stop 61 with
		// namedfield.go (1440's PVC read on its growing gaps).
		{dir: "testdata/batch14", minRight: 58, maxExtra: 0},
		// batch15 (stop 58): sig-storage-lib-external-provisioner's
		// controller under a hostpath provisioner, and controller-runtime's
		// examples/builtins (zap JSON), run here against envtest's
		// kube-apiserver; answers committed before the reader ran; first
		// score 33/41 (1500-1504, 1510-1516 all right; 1506-1507's give-ups
		// read as one failure more, not terminal), 41/41 with giveup.go;
		// 46/46 with sample-controller's 1520-1523 added (read right
		// before any rule).
		{dir: "testdata/batch15", minRight: 46, maxExtra: 0},
		// batch16 (stop 58): virtual-kubelet (logrus) and sample-controller
		// (klog) run here, answers committed before the reader ran; first
		// score 13/18 (its dated lines after the old clock: untimed, each
		// status-queue attempt counted twice), 18/18 at corpusClock;
		// 22/24 with KubeRay's 1620-1624 added, 24/24 with the kind-named
		// object field and the reconcileID merge.
		{dir: "testdata/batch16", minRight: 24, maxExtra: 0},
		// batch17 (stop 59): frr-k8s (go-kit JSON beside zap JSON) and a
		// DRA driver on k8s.io/dynamic-resource-allocation's resourceslice
		// controller (klog, error lines that name no key) run here, answers
		// committed before the reader ran. 17/25 first (frr-k8s all right,
		// the DRA driver's keyless handler lines none); 20/25 with the
		// handler's key taken from its sync's lines (handlerlogger.go).
		{dir: "testdata/batch17", minRight: 20, maxExtra: 0},
		// batch18 (stop 59): shapes of other frameworks pasted in public
		// issues (Java Operator SDK, logrus text, crossplane debug, a
		// log-store export, kopf negatives), answers committed before the
		// reader ran. Its first composition (8 of its excerpts of projects
		// ../wild names, removed) scored 4/9, then 7/9; as it is, 6/7 with
		// main's reader, 7/7 with the Java layouts and a key printed as a
		// record.
		{dir: "testdata/batch18", minRight: 7, maxExtra: 0},
		// batch19 (stop 59): klog work queues (CSI sidecars, ingress-gce's
		// task queue) and periodic cloud-provider loops as negatives,
		// answers committed before the reader ran: 2/6 first, 5/6 with
		// the task queue's `Requeuing "KEY" due to error: ERR (QUEUE)`
		// (requeueerr.go); its literal key "queueKey" stays unread, and
		// since stop 62 its answer says so (a synthetic item is no key,
		// docs/log-mode.md): 5/5.
		{dir: "testdata/batch19", minRight: 5, maxExtra: 0},
		// batch20 (stop 60): kube-apiserver's own queues (the aggregator's
		// availability, OpenAPI v2/v3 and autoregister, apiextensions' CRD
		// finalizer and naming, the authentication trust controller) and
		// kube-scheduler's (its scheduling failures, its CA ConfigMap
		// controllers) run here, answers committed before the reader ran.
		// 27/56 first (every key of a "KEY failed with" line right, no
		// scheduler key, no OpenAPI queue key); 40/56 with the scheduler's
		// object named by its message (gerundfield.go: every pod right)
		// and a quoted key before "failed with" (the OpenAPI queues' keys
		// read, counted twice: their two queues, v2 and v3, log from one
		// file name); 56/56 with the two told apart by the caller's line
		// (sites.go, stop 61).
		{dir: "testdata/batch20", minRight: 56, maxExtra: 0},
		// batch21 (stop 60): kwok (its node lease controller, pod and node
		// stage workers, pods-on-node sync; slog JSON) and whereabouts'
		// controlloop run here with other faults than heldout7's, answers
		// committed before the reader ran: 2/20 first (kwok's retried pod
		// stage only), 5/20 with a requeue that states the queue's retry
		// count read as a failure (countedrequeue.go) and a bracketed
		// [verbose] as a level; 11/20 with a cluster-scoped kind's field
		// ("node":"NAME") as the key where no namespace/name field is
		// (clusterfield.go); 12/20 with a counted requeue's error taken
		// from the keyless line just before it (errorbefore.go); 13/20
		// with a retry announced on the line after a candidate (2109;
		// announced.go, stop 61).
		{dir: "testdata/batch21", minRight: 13, maxExtra: 0},
		// batch22 (stop 60): the kubelet's pod workers and its volume
		// operations' exponential backoff (nestedpendingoperations, a
		// stated next retry, checked as its delay), pasted in public
		// issues and run here as kubemark's hollow node; answers
		// committed before the reader ran. 0/10 first (source A), 10/10
		// with the kubelet dialect and a viewer's time glued to klog;
		// source B, captured after, 12/12 on its first read: 22/22.
		{dir: "testdata/batch22", minRight: 22, maxExtra: 0},
		// batch23 (stop 61): held out from stop 57 to stop 60 as
		// testdata/heldout7 (30 excerpts, 19 of programs run here against
		// a real kube-apiserver, 11 of n–z issues; first score 5/24, last
		// held-out score 16/24 after batches 20–22 ran its own families
		// here), retired to training: its misses print from now on.
		// 20/24 with the OpenAPI v2/v3 queues told apart (703, sites.go);
		// 21/24 with a failure no announced retry follows dropped (709,
		// announced.go).
		{dir: "testdata/batch23", minRight: 21, maxExtra: 0},
		// batch24 (after stop 62): other controller frameworks' failure
		// lines (kube-rs/stackable-operator, the Java Operator SDK,
		// metacontroller, shell-operator, operator-sdk's Ansible and Helm
		// operators), answers committed before the reader ran (51c26a2a):
		// 4/9 first (odd half 2/5 with 3 false keys on 2415, even 2/4);
		// rules written from the odd half (the SDK's dialect and its
		// "Exhausted retries", kube-rs's ObjectRef, metacontroller's
		// pre-queue loop): odd 5/5, even 3/4, no false key.
		{dir: "testdata/batch24", minRight: 8, maxExtra: 0},
		// batch25 (stop 63): 24 excerpts of 15 programs in no other README
		// (6 failing keys, 18 negatives), answers committed before the reader
		// ran (7d384ba2); rules are written from the odd-numbered excerpts
		// only and checked on the even-numbered ones (batch25/README.md).
		// 4/6 first (odd 2/3, even 2/3), no false key; 5/6 (odd 3/3, even
		// 2/3) with a failure line's object named by its caller's package
		// (2503, callerfield.go).
		{dir: "testdata/batch25", minRight: 5, maxExtra: 0},
		// batch26 (stop 64): 20 excerpts of frameworks no batch had
		// (KubeOps, Crossplane's core and providers, the Pulumi operator,
		// kubewarden, kopf's timers; 7 failing keys, 13 negatives), answers
		// committed before the reader ran (5d5c669a); rules from the
		// odd-numbered excerpts only, checked on the even-numbered ones.
		// 2/7 first (odd 1/3, even 1/4), no false key; 3/7 (odd 2/3, even
		// 1/4) with KubeOps's watcher failure in .NET's console format
		// (melconsole.go).
		{dir: "testdata/batch26", minRight: 3, maxExtra: 0},
		// batch27 (stop 64): one controller-runtime reconciler through ten
		// logr sinks (slog JSON/text, logrusr, zerologr, klog's textlogger
		// and klogr, stdr, zap console with and without stacktraces) and a
		// client-go work-queue controller through klog text, dir headers
		// and component-base JSON, run here (batch27/README.md); answers
		// committed before the reader ran (ba745c9e): 60/65 first, odd
		// excerpts all right but 2721 (stdr, added after), even 2706
		// (stdr) 0/5; 70/70 with logr pairs after Go log's header
		// (stdlogpairs.go), written from 2721, checked on 2706.
		{dir: "testdata/batch27", minRight: 70, maxExtra: 0},
		{dir: "testdata/heldout3", minRight: 17, maxExtra: 0, heldOut: true},
		{dir: "testdata/heldout4", minRight: 20, maxExtra: 1, heldOut: true},
		// heldout5 (stop 53): 30 excerpts from programs in no other README,
		// answers committed before the reader ran; first score 9/11. Its
		// one false key was a mislabelled negative, moved to batch8 (822)
		// once looked at (heldout5/README.md).
		{dir: "testdata/heldout5", minRight: 9, maxExtra: 0, heldOut: true},
		// heldout6 (stop 54): 40 excerpts of n–z programs in no other
		// README, answers committed before the reader ran; first score 6/9,
		// 7/9 with batch18's Java logging layouts (stop 59); 8/9 with
		// batch24's framework rules (kube-rs's ReconcilerFailed, the Java
		// Operator SDK's dialect), scores only read.
		{dir: "testdata/heldout6", minRight: 8, maxExtra: 0, heldOut: true},
		// heldout8 (stop 61): 34 excerpts of 29 programs in no other
		// README, answers committed before the reader ran; first score
		// 11/12, its one "false key" a negative's key read with no
		// failure (815, kapp-controller's own "Reconciling"), which the
		// scorer no longer counts (heldout8/README.md).
		{dir: "testdata/heldout8", minRight: 11, maxExtra: 0, heldOut: true},
		// heldout9 (after stop 61): 30 excerpts of 22 programs in no other
		// README (gitlab.com issues, project docs, blogs, developers'
		// notes, logs quoted in code comments), answers committed before
		// the reader ran (a29e1cb6); first score 12/15, no false key.
		{dir: "testdata/heldout9", minRight: 12, maxExtra: 0, heldOut: true},
	} {
		t.Run(filepath.Base(tt.dir), func(t *testing.T) {
			sc := scoreCorpus(t, tt.dir)
			t.Logf("%s: %d/%d keys right (count, last error, terminal), %d/%d read; %d false keys on negatives, %d extra keys",
				tt.dir, sc.right, sc.expected, sc.found, sc.expected, sc.falseOnNegatives, sc.extra)
			for _, m := range sc.misses {
				if tt.heldOut && !*corpusMisses {
					break
				}
				t.Log("  " + m)
			}
			if sc.falseOnNegatives > 0 {
				t.Errorf("%d false keys on negatives, want none", sc.falseOnNegatives)
			}
			if sc.right < tt.minRight {
				t.Errorf("%d keys right, want at least %d (the ratchet)", sc.right, tt.minRight)
			}
			if sc.extra > tt.maxExtra {
				t.Errorf("%d extra keys, want at most %d (the ratchet)", sc.extra, tt.maxExtra)
			}
		})
	}
}
