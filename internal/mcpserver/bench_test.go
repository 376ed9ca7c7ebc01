package mcpserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// BenchmarkKeysAt100k: the keys tool beside get's read (Session.Keys, what
// `kubectl backoff get --limit 100` calls) over one endpoint of 100,000
// failing keys with 1,000 distinct 200-byte errors, unpaced, served in
// process: the tool's own cost is what it adds to get's (the SDK's JSON-RPC,
// the output schema's check, the escape, the summary).
func BenchmarkKeysAt100k(b *testing.B) {
	const n, distinct = 100_000, 1000
	reg := instrument.NewRegistry()
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg})
	rl := p.RateLimiter(nil)
	errs := make([]error, distinct)
	for i := range errs {
		head := fmt.Sprintf("sync widget: dependency %d failed: ", i)
		errs[i] = errors.New(head + strings.Repeat("connection refused; ", 10)[:200-len(head)])
	}
	for i := range n {
		k := fmt.Sprintf("default/widget-%06d", i)
		_ = p.Track(k, func() error { return errs[i%distinct] })
		rl.When(k)
	}
	discard := logr.Discard()
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Reuse: -1, MaxRequestsPerSecond: -1, Logger: &discard,
		AllowedHosts: []string{inspector.InProcessHost}})
	s := inspector.InProcessSession(nil, inspector.NamedHandler{Name: "bench", Handler: h})
	defer s.Close()

	b.Run("get", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			l, err := s.Keys(b.Context(), inspector.KeyQuery{Sort: api.SortRetrying, Limit: 100})
			if err != nil || len(l.Items) != 100 {
				b.Fatalf("get: %v", err)
			}
		}
	})
	b.Run("mcp-keys", func(b *testing.B) {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := New(Config{Session: s}).Connect(b.Context(), st, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(b.Context(), ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		args := map[string]any{"limit": 100}
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: "keys", Arguments: args})
			if err != nil || res.IsError {
				b.Fatalf("keys: %v %v", err, res)
			}
		}
	})
}
