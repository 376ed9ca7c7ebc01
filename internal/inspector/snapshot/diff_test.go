package snapshot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

func file(keys ...api.Key) *snapshot.File {
	return &snapshot.File{Kind: snapshot.Kind, FormatVersion: snapshot.FormatVersion, Endpoints: []snapshot.Endpoint{{Name: "pod", Keys: keys}}}
}

func k(key string, st api.State, failures int, msg string) api.Key {
	out := api.Key{Controller: "widget", Key: key, State: st, Failures: failures}
	if msg != "" {
		out.LastError = &api.ErrorRecord{Message: msg}
	}
	return out
}

func TestDiff(t *testing.T) {
	// forgotten: a forget without requeue reset its count after its last
	// failure, not the failure (its retry keeps its time): still failing,
	// its count reset. reset-fails-again: forgotten, then retried and failed
	// again. reset-grows: forgotten, then failed more than before: a new
	// streak, not growth. lower: an endpoint without lastReset, 14 → 4.
	at := func(s int) time.Time { return time.Date(2026, 11, 30, 8, 0, s, 0, time.UTC) }
	forgotten := k("a/forgotten", api.StateBackoff, 0, "503")
	forgotten.LastReconcileAt, forgotten.LastError.At = at(1), at(1)
	forgotten.LastReset = &api.Reset{At: at(2), By: api.ResetForget, Failures: 4}
	again := forgotten
	again.Key, again.LastReconcileAt, again.LastError, again.Failures = "a/reset-fails-again", at(3), &api.ErrorRecord{Message: "503", At: at(3)}, 1
	grows := again
	grows.Key, grows.Failures = "a/reset-grows", 9
	earlier := k("a/reset-earlier", api.StateBackoff, 5, "503")
	earlier.LastReset = &api.Reset{At: at(0), By: api.ResetForget, Failures: 2}
	before := file(
		k("a/forgotten", api.StateBackoff, 4, "503"),
		k("a/reset-fails-again", api.StateBackoff, 4, "503"),
		k("a/steady", api.StateBackoff, 3, "503"),
		k("a/grows", api.StateBackoff, 2, "503"),
		k("a/changes", api.StateBackoff, 4, "503"),
		k("a/both", api.StateBackoff, 1, "503"),
		k("a/recovers", api.StateBackoff, 5, "503"),
		k("a/gone", api.StateFailed, 1, "invalid"),
		k("a/idle", api.StateIdle, 0, ""),
		k("a/breaks", api.StateIdle, 0, ""),
		k("a/reset-grows", api.StateBackoff, 4, "503"),
		k("a/lower", api.StateBackoff, 14, "503"),
		earlier,
	)
	later := earlier
	later.Failures = 7
	after := file(
		k("a/steady", api.StateBackoff, 3, "503"),
		k("a/grows", api.StateBackoff, 6, "503"),
		k("a/changes", api.StateQueued, 4, "conflict"),
		k("a/both", api.StateBackoff, 2, "timeout"),
		k("a/recovers", api.StateIdle, 0, "503"),
		k("a/idle", api.StateIdle, 0, ""),
		k("a/breaks", api.StateFailed, 0, "invalid"),
		k("a/new", api.StateBackoff, 1, "503"),
		forgotten,
		again,
		grows,
		k("a/lower", api.StateBackoff, 4, "503"),
		later,
	)
	var got []string
	for _, c := range snapshot.Diff(before, after) {
		got = append(got, fmt.Sprintf("%s %s", c.Key, strings.Join(c.Changes, ",")))
	}
	want := []string{
		"a/breaks started-failing",
		"a/new started-failing",
		"a/both failures-grew,error-changed",
		"a/grows failures-grew",
		"a/reset-earlier failures-grew",
		"a/changes error-changed",
		"a/forgotten count-reset",
		"a/lower count-reset",
		"a/reset-fails-again count-reset",
		"a/reset-grows count-reset",
		"a/gone stopped-failing",
		"a/recovers stopped-failing",
	}
	if e, a := strings.Join(want, "\n"), strings.Join(got, "\n"); e != a {
		t.Errorf("Diff:\n%s\nwant:\n%s", a, e)
	}
}

// TestDiffUnreadReplica: issue #32's AFTER, whose second replica could not
// be read. Its keys are unknown there, not recovered: left out of the
// changes and counted, while the keys of the replica read in both are
// compared as ever. The same holds the other way round (a BEFORE with an
// unread replica says nothing of keys new in AFTER).
func TestDiffUnreadReplica(t *testing.T) {
	before := file(k("a/read-both", api.StateBackoff, 1, "503"))
	before.Endpoints = append(before.Endpoints, snapshot.Endpoint{Name: "demo/ctrl-1", Keys: []api.Key{
		k("b/on-unread-1", api.StateBackoff, 3, "503"), k("b/on-unread-2", api.StateFailed, 1, "invalid")}})
	after := file(k("a/read-both", api.StateBackoff, 4, "503"))
	after.Endpoints = append(after.Endpoints, snapshot.Endpoint{Name: "demo/ctrl-1", Error: "context deadline exceeded"})

	got := snapshot.Diff(before, after)
	if len(got) != 1 || got[0].Key != "a/read-both" || got[0].Changes[0] != snapshot.Grew {
		t.Errorf("Diff = %+v; want only a/read-both failures-grew (the unread replica's keys left out)", got)
	}
	if e, a := 2, snapshot.Unknown(before, after); e != a {
		t.Errorf("Unknown = %d, want %d", a, e)
	}
	if u := after.Unread(); len(u) != 1 || u[0].Name != "demo/ctrl-1" {
		t.Errorf("Unread = %+v, want demo/ctrl-1", u)
	}
	// Reversed roles: the keys new in AFTER may have been on BEFORE's unread replica.
	if got := snapshot.Diff(after, before); len(got) != 1 || snapshot.Unknown(after, before) != 2 {
		t.Errorf("Diff(after, before) = %+v, Unknown %d; want one change and 2 unknown", got, snapshot.Unknown(after, before))
	}
}
