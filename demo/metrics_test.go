package demo

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServesMetrics: the demo serves its probes' series at /metrics beside
// the endpoint, each controller's, from a registry of its own.
func TestServesMetrics(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := DefaultOptions()
	opts.Keys, opts.Listen = 20, "127.0.0.1:0"
	d, err := Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = d.Wait() }()
	resp, err := http.Get(d.MetricsURL())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, sc := range scenarios {
		want := `kubectl_backoff_keys{controller="` + sc.name + `",state="backoff"}`
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s:\n%s", want, body)
		}
	}
	// The endpoint is still served beside it.
	r2, err := http.Get(d.URL() + "v1/controllers")
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != http.StatusOK {
		t.Errorf("v1/controllers: %s", r2.Status)
	}
}
