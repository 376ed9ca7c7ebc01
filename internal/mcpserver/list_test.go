package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/kick"
)

// TestBareString: a model often sends one state or one key as a bare
// string ({"state":"backoff"}); the SDK's client gets the one-element
// list's answer, not a schema refusal, and the array form still works.
func TestBareString(t *testing.T) {
	var kicked []string
	cs := connect(t, Config{Session: demoSession(t), AllowWrite: true,
		Kick: func(_ context.Context, _ string, keys []string) ([]kick.Result, error) {
			kicked = append(kicked, keys...)
			return []kick.Result{{Key: keys[0], Resource: "configmaps"}}, nil
		}})

	for _, tc := range []struct {
		state any
		want  []api.State
	}{
		{"backoff", []api.State{api.StateBackoff}},
		{[]string{"backoff"}, []api.State{api.StateBackoff}},
		{"backoff, failed", []api.State{api.StateBackoff, api.StateFailed}}, // split as --state does
	} {
		var keys KeysOutput
		res := call(t, cs, "keys", map[string]any{"state": tc.state, "limit": 100}, &keys)
		// The demo's keys move between states: a page may be empty, and
		// what it holds is in the states asked for.
		if res.IsError || keys.Total == 0 {
			t.Errorf("keys state=%q: error %v, %d tracked: %s", tc.state, res.IsError, keys.Total, textOf(res))
			continue
		}
		// The endpoint filters each key on the reading it answers with: a
		// key that moved on since its filter is left out, never listed in
		// a state not asked for (seen in CI: a backoff key listed as running).
		var off []string
		for _, k := range keys.Items {
			if !slices.Contains(tc.want, k.State) {
				off = append(off, k.Key.Key+" is "+string(k.State))
			}
		}
		if len(off) > 0 {
			t.Errorf("keys state=%q: %d of %d not in %v: %v", tc.state, len(off), len(keys.Items), tc.want, off)
		}
	}

	var groups ErrorGroupsOutput
	if res := call(t, cs, "error_groups", map[string]any{"state": "backoff"}, &groups); res.IsError {
		t.Errorf("error_groups state=\"backoff\": %s; want an answer", textOf(res))
	}
	var out KickOutput
	if res := call(t, cs, "kick", map[string]any{"keys": "demo/a"}, &out); res.IsError || !slices.Equal(kicked, []string{"demo/a"}) {
		t.Errorf("kick keys=\"demo/a\": %q, kicked %v; want demo/a", textOf(res), kicked)
	}
	if res := call(t, cs, "keys", map[string]any{"state": 3}, nil); !res.IsError || !strings.Contains(textOf(res), "state") {
		t.Errorf("keys state=3: error %v, %q; want refused, naming state", res.IsError, textOf(res))
	}

	// What the tool advertises says the string form, so a client that
	// checks its arguments first does not refuse it either.
	for tool, err := range cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Name != "keys" {
			continue
		}
		b, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Properties map[string]struct {
				Type json.RawMessage `json:"type"` // a string, or a list of them
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &s); err != nil || !strings.Contains(string(s.Properties["state"].Type), `"string"`) {
			t.Errorf("keys' input schema for state: %v %s; want it to allow a string", err, b)
		}
	}
}
