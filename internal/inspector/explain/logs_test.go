package explain

import (
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestExplainUnknownFromLogs(t *testing.T) {
	last := time.Date(2026, 11, 30, 8, 24, 45, 0, time.UTC)
	k := api.Key{Controller: "widget", Key: "default/w1", State: api.StateUnknown, Failures: 2,
		NextRetryAt: last.Add(10 * time.Millisecond), Delay: metav1.Duration{Duration: 10 * time.Millisecond},
		LastError: &api.ErrorRecord{Message: "connection refused", At: last}, Source: api.SourceLogs, Estimated: true}
	cr := &api.Controller{Name: "widget"}
	src := &api.ListSource{Kind: api.SourceLogs, SuccessesHow: "--zap-log-level=5"}
	d := Explain(Input{Key: k, Controller: cr, Source: src, Now: last.Add(time.Minute)})
	if want := "Unknown: 2 failures logged, the last at 08:24:45"; !strings.HasPrefix(d.Summary, want) {
		t.Errorf("summary = %q, want it to start %q", d.Summary, want)
	}
	if !strings.Contains(d.Summary, "success is not logged at the default verbosity") {
		t.Errorf("summary = %q, want it to say success is not logged", d.Summary)
	}
	// A dialect that advises no level (cert-manager's, kube-controller-
	// manager's): none is said, and "instrument it" alone would be a dead
	// end for a controller the reader does not build: the object's status
	// (why) is named first.
	if d := Explain(Input{Key: k, Controller: &api.Controller{Name: "widget"}, Source: &api.ListSource{Kind: api.SourceLogs}, Now: last.Add(time.Minute)}); strings.Contains(d.Summary, "verbosity") ||
		strings.Contains(d.Summary, "zap") || !strings.Contains(d.Summary, "the object's status shows them (kubectl backoff why TYPE/NAME reads it)") ||
		!strings.Contains(d.Summary, "the instrument, in a controller you build") {
		t.Errorf("summary = %q, want no level, the object's status (why), and instrumenting one's own", d.Summary)
	}
	if !slices.Contains(d.Details, logNote(k, nil)) || !strings.Contains(logNote(k, nil), "estimates") {
		t.Errorf("details = %q, want the estimate note", d.Details)
	}
	k.Source = ""
	k.State = api.StateBackoff
	if d := Explain(Input{Key: k, Now: last}); slices.ContainsFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, "Read from the controller's log") }) {
		t.Errorf("an instrumented key's details carry the log note: %q", d.Details)
	}
}

// A key read from a log that reached its logger's sampling rate says its
// count may be low, when it failed since; the controller says it too.
func TestExplainSampledLog(t *testing.T) {
	sampled := time.Date(2026, 11, 30, 8, 24, 0, 0, time.UTC)
	c := &api.Controller{Name: "widget", Active: true, Counts: map[api.State]int{api.StateBackoff: 1}}
	src := &api.ListSource{Kind: api.SourceLogs, SampledAt: sampled}
	key := func(lastErr time.Time) api.Key {
		return api.Key{Controller: "widget", Key: "default/w1", State: api.StateBackoff, Failures: 2,
			NextRetryAt: lastErr.Add(10 * time.Millisecond), Delay: metav1.Duration{Duration: 10 * time.Millisecond},
			DelaySource: api.SourceItemExponential,
			LastError:   &api.ErrorRecord{Message: "connection refused", At: lastErr}, Source: api.SourceLogs, Estimated: true}
	}
	const want = "The failure count may be low: from 08:24:00 the log shows the signature of controller-runtime's production logger"
	has := func(d Diagnosis) bool {
		return slices.ContainsFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, want) })
	}
	if d := Explain(Input{Key: key(sampled.Add(time.Second)), Controller: c, Source: src, Now: sampled.Add(time.Second)}); !has(d) {
		t.Errorf("a key failing after the log was sampled: details = %q, want one starting %q", d.Details, want)
	}
	if d := Explain(Input{Key: key(sampled.Add(-time.Second)), Controller: c, Source: src, Now: sampled}); has(d) {
		t.Errorf("a key whose last failure came before: details = %q, want no sampling note", d.Details)
	}
	unsampled := &api.ListSource{Kind: api.SourceLogs}
	if d := Explain(Input{Key: key(sampled.Add(time.Second)), Controller: c, Source: unsampled, Now: sampled.Add(time.Second)}); has(d) {
		t.Errorf("a log never sampled: details = %q, want no sampling note", d.Details)
	}
	d := DiagnoseController(*c, src, nil, sampled.Add(time.Second))
	if !slices.ContainsFunc(d.Findings, func(f Finding) bool { return f.Code == FindingLogSampled }) {
		t.Errorf("controller findings = %+v, want %s", d.Findings, FindingLogSampled)
	}
	if d := DiagnoseController(*c, unsampled, nil, sampled); slices.ContainsFunc(d.Findings, func(f Finding) bool { return f.Code == FindingLogSampled }) {
		t.Errorf("an unsampled log's findings = %+v, want no %s", d.Findings, FindingLogSampled)
	}
}

// A retry the log stated (Flux's "next try in 1m0s") is described as
// stated, not estimated; a failure whose time could not be read says
// "time unknown", never 00:00:00.
func TestExplainStatedRetryFromLogs(t *testing.T) {
	at := time.Date(2026, 11, 30, 8, 24, 45, 0, time.UTC)
	c := &api.Controller{Name: "kustomization", Active: true,
		Limiter: api.Limiter{Components: []api.LimiterComponent{{Name: api.SourceItemExponential,
			BaseDelay: metav1.Duration{Duration: 5 * time.Millisecond}, MaxDelay: metav1.Duration{Duration: 1000 * time.Second}}}}}
	k := api.Key{Controller: "kustomization", Key: "flux-system/apps", State: api.StateBackoff, Failures: 1,
		NextRetryAt: at.Add(time.Minute), Delay: metav1.Duration{Duration: time.Minute}, DelaySource: api.SourceStated,
		DelayWords: "next try in 1m0s", LastError: &api.ErrorRecord{Message: "kustomize build failed", At: at}, Source: api.SourceLogs}
	d := Explain(Input{Key: k, Controller: c, Now: at.Add(time.Second)})
	if want := `the log states this delay: "next try in 1m0s". Next retry at`; !strings.Contains(d.Summary, want) || strings.Contains(d.Summary, "if it fails again") {
		t.Errorf("summary = %q, want it to say %q and no exponential's next delay", d.Summary, want)
	}
	if want := "the next retry is the one the log states"; !slices.ContainsFunc(d.Details, func(s string) bool { return strings.Contains(s, want) }) {
		t.Errorf("details = %q, want one saying %q", d.Details, want)
	}
	k.State = api.StateUnknown
	if d := Explain(Input{Key: k, Controller: c, Now: at.Add(time.Hour)}); !strings.Contains(d.Summary, "its retry was due at 08:25:45 (stated by the log)") {
		t.Errorf("summary = %q, want the stated retry", d.Summary)
	}
	k.Estimated, k.LastError.At = true, time.Time{}
	if d := Explain(Input{Key: k, Controller: c, Now: at.Add(time.Hour)}); !strings.Contains(d.Summary, "the last with its time unknown") || strings.Contains(d.Summary, "00:00:00") {
		t.Errorf("summary = %q, want the last failure's time unknown", d.Summary)
	}
}

// A log without successes (its source's Verbose false) shows a count
// of logged failures and triggers read off the retry's time: Explain states
// neither as fact. With V(5) lines the same history is exact: events that
// pre-empted the backoff, consecutive failures.
func TestExplainUnloggedSuccesses(t *testing.T) {
	at := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	const conflict = `Operation cannot be fulfilled on configmaps "c": the object has been modified`
	key := func(trigger string, preempted bool) api.Key {
		k := api.Key{Controller: "conflicts", Key: "demo/c", State: api.StateBackoff, Failures: 4, SameErrorCount: 4,
			FirstFailureAt: at, NextRetryAt: at.Add(70 * time.Second), Delay: metav1.Duration{Duration: 40 * time.Millisecond},
			DelaySource: api.SourceItemExponential, Source: api.SourceLogs, Estimated: true,
			LastError: &api.ErrorRecord{Message: conflict, At: at.Add(30 * time.Second), Class: api.ClassTransient}}
		for i := range 4 {
			a := api.Attempt{At: at.Add(time.Duration(i) * 10 * time.Second), Outcome: api.OutcomeError, Error: conflict,
				Class: api.ClassTransient, Delay: metav1.Duration{Duration: 5 * time.Millisecond << i}}
			if i > 0 {
				a.Trigger, a.Preempted = trigger, preempted
			}
			k.History = append(k.History, a)
		}
		return k
	}
	c := &api.Controller{Name: "conflicts", Active: true}
	src := &api.ListSource{Kind: api.SourceLogs}

	k := key(api.TriggerLate, false)
	d := Explain(Input{Key: k, Controller: c, Source: src, Now: at.Add(31 * time.Second)})
	if want := "Backing off 40ms after 4 failures logged since 08:00:00"; !strings.HasPrefix(d.Summary, want) {
		t.Errorf("summary %q; want it to start %q", d.Summary, want)
	}
	if all := d.String(); strings.Contains(all, "consecutive failure") || !strings.Contains(all, "may not be consecutive") ||
		!strings.Contains(all, "3 of the last 4 attempts came off their retry's time (0 sooner, 3 later)") {
		t.Errorf("diagnosis states the count as consecutive, or does not say the attempts came off their retry:\n%s", all)
	}
	if got, want := TriggerText(k.History[1], &k.History[0]), "later than the retry after 5ms: a success not logged, then an event; or no free worker"; got != want {
		t.Errorf("TriggerText(late) = %q, want %q", got, want)
	}

	k = key(api.TriggerSooner, false)
	if got, want := TriggerText(k.History[2], &k.History[1]), "sooner than the retry after 10ms: an event, or a success not logged"; got != want {
		t.Errorf("TriggerText(sooner) = %q, want %q", got, want)
	}
	d = Explain(Input{Key: k, Controller: c, Source: src, Now: at.Add(31 * time.Second)})
	for _, f := range d.Findings {
		if f.Code == FindingHotLoop || strings.Contains(f.Message, "another writer") {
			t.Errorf("a hot loop concluded from inferred triggers: %s", f.Message)
		}
	}

	// The log shows successes: the same attempts are events that pre-empted
	// the backoff, and the count is consecutive.
	verbose := &api.ListSource{Kind: api.SourceLogs, Verbose: true}
	d = Explain(Input{Key: key(api.TriggerEvent, true), Controller: c, Source: verbose, Now: at.Add(31 * time.Second)})
	if !strings.HasPrefix(d.Summary, "Backing off 40ms after 4 consecutive failures") ||
		!slices.ContainsFunc(d.Findings, func(f Finding) bool { return f.Code == FindingHotLoop && strings.Contains(f.Message, "pre-empted") }) {
		t.Errorf("with V(5) lines: summary %q, findings %v; want consecutive failures and the pre-emption hot loop", d.Summary, d.Findings)
	}
}

// A key the generic reader read shows the line it read and the evidence
// that decided, escaped (they are the log's text, and may hold a terminal's
// control sequences); a named dialect's key shows none.
func TestExplainGenericLine(t *testing.T) {
	last := time.Date(2026, 11, 30, 8, 24, 45, 0, time.UTC)
	k := api.Key{Controller: "stateful_set", Key: "kube-system/prometheus", State: api.StateBackoff, Failures: 1,
		NextRetryAt: last.Add(5 * time.Millisecond), LastError: &api.ErrorRecord{Message: "invalid", At: last},
		Source: api.SourceLogs, Estimated: true,
		LogLine: "E1122 23:10:02.364507 98410 stateful_set.go:395] Error syncing StatefulSet kube-system/prometheus, requeuing: \x1b]0;PWNED\a"}
	d := Explain(Input{Key: k, Now: last})
	i := slices.IndexFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, "Read by the generic reader") })
	if i < 0 {
		t.Fatalf("details = %q, want the generic reader's note", d.Details)
	}
	if note := d.Details[i]; strings.ContainsAny(note, "\x1b\a") || !strings.Contains(note, `Error syncing StatefulSet kube-system/prometheus`) || !strings.Contains(note, "client-go's default") {
		t.Errorf("note = %q, want the line escaped and the limiter assumed", note)
	}
	// What decided is said, escaped too: it quotes the log's template.
	k.LogEvidence = "growing gaps: its template \"could not update status of <*>\" comes for default/c1 after 5ms, 10ms, 20ms\x1b[2J"
	d = Explain(Input{Key: k, Now: last})
	if i := slices.IndexFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, "Read by the generic reader") }); i < 0 ||
		!strings.Contains(d.Details[i], "Read as a failed attempt by growing gaps: its template") || strings.Contains(d.Details[i], "\x1b") {
		t.Errorf("details = %q, want the evidence that decided, escaped", d.Details)
	}
	k.LogLine = ""
	if d := Explain(Input{Key: k, Now: last}); slices.ContainsFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, "Read by the generic reader") }) {
		t.Errorf("a named dialect's key carries the generic note: %q", d.Details)
	}
	// A named dialect's key whose key came from another line says which.
	k.LogEvidence = "its key \"kube-system/prometheus\" named by line 3 just before it\x1b[2J"
	d = Explain(Input{Key: k, Now: last})
	if i := slices.IndexFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, "Its failure line names no key") }); i < 0 ||
		!strings.Contains(d.Details[i], "named by line 3 just before it") || strings.Contains(d.Details[i], "\x1b") {
		t.Errorf("details = %q, want the line its key came from, escaped", d.Details)
	}
}

// A retry time the priority queue logged (workqueue_items) is said to be
// the queue's, not the words of a failure line.
func TestLogNoteQueue(t *testing.T) {
	k := api.Key{Source: api.SourceLogs, DelaySource: api.SourceQueue, State: api.StateBackoff}
	if got := logNote(k, nil); !strings.Contains(got, "the priority queue's own") || strings.Contains(got, "states") {
		t.Errorf("logNote = %q, want the queue's own retry time", got)
	}
}

// TestLogNoteDoubling: a key whose delay follows its own doubling gaps
// is not said to be estimated from the controller's assumed limiter (seen
// on cloud-controller-manager's log, batch14/1411: "Backing off 40s …
// doubling gaps" above "from max of item-exponential 5ms..16m40s …").
func TestLogNoteDoubling(t *testing.T) {
	c := &api.Controller{Limiter: api.Limiter{Description: "max of item-exponential 5ms..16m40s and bucket 10 qps, burst 100"}}
	k := api.Key{Source: api.SourceLogs, DelaySource: api.SourceDoubling, State: api.StateBackoff, Estimated: true}
	if got := logNote(k, c); !strings.Contains(got, "double") || strings.Contains(got, "5ms..16m40s") {
		t.Errorf("logNote = %q, want the key's own doubling gaps, not the controller's assumed limiter", got)
	}
	k.DelaySource = api.SourceItemExponential
	if got := logNote(k, c); !strings.Contains(got, "5ms..16m40s") {
		t.Errorf("logNote = %q, want the controller's limiter for a key on it", got)
	}
}

// top's header says "log 1 line", not "1 lines" (seen on a followed file
// of one line).
func TestReadFactsOneLine(t *testing.T) {
	if got := ReadFacts(&api.LogRead{Lines: 1})[0].Short; got != "1 line" {
		t.Errorf("short fact = %q, want %q", got, "1 line")
	}
}

// TestLogNote: where a log's key's numbers come from, by how its delay is
// known: stated in the log's words, a replayed bucket, the spacing of its
// failures; and whether the log shows successes.
func TestLogNote(t *testing.T) {
	verbose := &api.ListSource{Kind: api.SourceLogs, Verbose: true}
	for _, tc := range []struct {
		k    api.Key
		src  *api.ListSource
		want []string
	}{
		{api.Key{Source: api.SourceLogs, DelayWords: "Retrying in 2m40s"}, verbose,
			[]string{`The next retry is stated by the log ("Retrying in 2m40s"): exact, not estimated.`, "Successes are in this log: a failure streak ends at the next one."}},
		{api.Key{Source: api.SourceLogs, Estimated: true, DelaySource: api.SourceBucket}, nil,
			[]string{"Delays and the next retry are estimated: the controller's token bucket (10 qps, burst 100), replayed over its failure lines, chose it.",
				`This log shows no successes: a key quiet past its retry is "unknown", not idle`}},
		{api.Key{Source: api.SourceLogs, Estimated: true, DelaySource: api.SourceSpacing}, verbose,
			[]string{"Delays and the next retry are estimated from the spacing of the key's own failures (longer than the default limiter's).", "Successes are in this log: a failure streak ends at the next one."}},
	} {
		n, ok := LogNote(tc.k, tc.src, nil)
		if !ok || !slices.Equal(n.Lines, tc.want) {
			t.Errorf("LogNote(%+v) = %q, %v\nwant %q", tc.k, n.Lines, ok, tc.want)
		}
	}
	if _, ok := LogNote(api.Key{Key: "default/w1"}, nil, nil); ok {
		t.Error("an endpoint's key has a log note")
	}
}

// A key whose controller's name is the handler its errors name (the log
// names no controller) says so, quoting the log's words, escaped; a key
// whose log named its controller says nothing of it.
func TestExplainControllerWords(t *testing.T) {
	last := time.Date(2021, 9, 8, 16, 20, 29, 0, time.UTC)
	k := api.Key{Controller: "need-a-cert", Key: "validating-webhook-configuration", State: api.StateBackoff, Failures: 2,
		NextRetryAt: last.Add(10 * time.Millisecond), Source: api.SourceLogs, Estimated: true,
		LastError:       &api.ErrorRecord{Message: `handler need-a-cert: services "webhook-service" not found`, At: last},
		ControllerWords: "handler need-a-cert\x1b[2J"}
	named := func(d Diagnosis) int {
		return slices.IndexFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, "Its controller's name is") })
	}
	d := Explain(Input{Key: k, Now: last})
	if i := named(d); i < 0 || !strings.Contains(d.Details[i], `"handler need-a-cert\x1b[2J: …"`) || strings.Contains(d.Details[i], "\x1b") {
		t.Errorf("details = %q, want where the controller's name came from, escaped", d.Details)
	}
	k.ControllerWords = ""
	if d := Explain(Input{Key: k, Now: last}); named(d) >= 0 {
		t.Errorf("details = %q, want no word of the name's origin", d.Details)
	}
}
