package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet/fleettest"
)

// runCLI runs kubectl-backoff with args and returns its stdout.
func runCLI(t testing.TB, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := cli.NewRootCommand(genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	if err != nil {
		err = fmt.Errorf("%w (stderr: %s)", err, errOut.String())
	}
	return out.String(), err
}

// startDemo runs an in-process demo of keys keys on a free loopback port.
func startDemo(t testing.TB, keys int) *demo.Demo {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	opts := demo.DefaultOptions()
	opts.Keys, opts.Seed, opts.Listen = keys, 7, "127.0.0.1:0"
	d, err := demo.Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = d.Wait() })
	return d
}

// byController counts a get's keys by controller and state.
func byController(t testing.TB, addr string) map[string]map[api.State]int {
	t.Helper()
	out, err := runCLI(t, "get", "--addr", addr, "--limit", "0", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var list api.KeyList
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("get -o json: %v\n%s", err, out)
	}
	m := map[string]map[api.State]int{}
	for _, k := range list.Items {
		if m[k.Controller] == nil {
			m[k.Controller] = map[api.State]int{}
			for _, st := range api.States {
				m[k.Controller][st] = 0
			}
		}
		m[k.Controller][k.State]++
	}
	return m
}

// TestFleetThroughARealPrometheus: two demos labelled as two clusters,
// scraped by a real Prometheus; fleet -o json shows both, worst first,
// each controller's keys by state as its own endpoint's get counts them.
func TestFleetThroughARealPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Prometheus and two demos")
	}
	demos := map[string]*demo.Demo{"east": startDemo(t, 40), "west": startDemo(t, 90)}
	var targets []scrapeTarget
	for _, c := range slices.Sorted(maps.Keys(demos)) {
		targets = append(targets, scrapeTarget{addr: demos[c].Addr().String(), labels: map[string]string{"cluster": c, "namespace": "demo"}})
	}
	prom := startPrometheus(t, targets...)

	var f fleet.Fleet
	// The demos change as they run: a state read by get is compared with
	// the same state scraped later, so this waits for a round in which
	// nothing moved between the two reads.
	pollUntil(t, 90*time.Second, "fleet to show what each demo's get shows", func() (bool, string) {
		want := map[string]map[string]map[api.State]int{}
		for c, d := range demos {
			want[c] = byController(t, d.Addr().String())
		}
		var err error
		if f, err = fleetJSON(t, prom); err != nil {
			return false, err.Error()
		}
		if e, a := []string{"east", "west"}, f.Clusters; !slices.Equal(e, a) {
			return false, fmt.Sprintf("clusters: want %v, got %v", e, a)
		}
		got := map[string]map[string]map[api.State]int{}
		for _, r := range f.Rows {
			if got[r.Cluster] == nil {
				got[r.Cluster] = map[string]map[api.State]int{}
			}
			got[r.Cluster][r.Controller] = r.Keys
			if r.Namespace != "demo" {
				t.Fatalf("row %s: namespace %q, want demo (the scrape's label)", r.ID(), r.Namespace)
			}
		}
		if fmt.Sprint(want) != fmt.Sprint(got) {
			return false, fmt.Sprintf("get: %v\nfleet: %v", want, got)
		}
		// The demos export their worst keys: under each failing row, the
		// deepest streak is its first worst key's, both of one scrape. The
		// panels are queried at one instant, but a scrape that began
		// before it may land between two panels' queries: a round that
		// straddled one is read again.
		for _, r := range f.Rows {
			if r.MaxFailures == 0 {
				continue
			}
			if len(r.WorstKeys) == 0 || len(r.WorstKeys) > 10 {
				return false, fmt.Sprintf("row %s: %d worst keys, want 1..10", r.ID(), len(r.WorstKeys))
			}
			if e, a := r.MaxFailures, r.WorstKeys[0].Failures; e != a {
				return false, fmt.Sprintf("row %s: deepest streak %d, its worst key's %d (%+v)", r.ID(), e, a, r.WorstKeys[0])
			}
		}
		return true, ""
	})
	if e, a := len(fleet.Queries("cluster")), f.Queries; e != a {
		t.Errorf("queries: want %d, got %d", e, a)
	}
	if !slices.IsSortedFunc(f.Rows, func(a, b fleet.Row) int { return int(b.OldestFailureSeconds - a.OldestFailureSeconds) }) {
		t.Errorf("rows not worst first: %+v", f.Rows)
	}
	if f.Rows[0].OldestFailureSeconds <= 0 || f.Rows[0].Failing() == 0 {
		t.Errorf("worst row %s fails nothing: %+v", f.Rows[0].ID(), f.Rows[0])
	}
	// The demos' naive controllers fail from their first second: their
	// limiters' delays (5ms doubling) show under their rows.
	for _, r := range f.Rows {
		if r.Controller != "naive" {
			continue
		}
		pollUntil(t, 30*time.Second, "retry delays of "+r.ID(), func() (bool, string) {
			got, err := fleet.Read(context.Background(), mustClient(t, prom), fleet.Options{})
			if err != nil {
				return false, err.Error()
			}
			for _, g := range got.Rows {
				if g.ID() == r.ID() {
					d := g.RetryDelays
					return d != nil && d.Retries > 0 && d.MeanSeconds >= 0.005, fmt.Sprintf("%+v", d)
				}
			}
			return false, "no row"
		})
	}
	// Every panel of the Grafana dashboard answers from this Prometheus.
	dash := fleettest.ReadDashboard(t, "../../config/grafana/kubectl-backoff-fleet.json")
	c, err := fleet.NewClient(fleet.Config{URL: prom})
	if err != nil {
		t.Fatal(err)
	}
	// The delay panel reads an increase: it has data once two scrapes
	// saw a retry between them.
	pollUntil(t, 30*time.Second, "every dashboard panel to answer with data", func() (bool, string) {
		for _, p := range dash.Panels {
			for _, tg := range p.Targets {
				r, err := c.Query(context.Background(), tg.Expr, time.Now())
				if err != nil {
					t.Fatalf("dashboard panel %q: %v", p.Title, err)
				} else if len(r.Samples) == 0 {
					return false, fmt.Sprintf("dashboard panel %q: no data", p.Title)
				}
			}
		}
		return true, ""
	})
	if e, a := 12, len(f.Rows); e != a {
		t.Errorf("rows: want %d (6 controllers × 2 clusters), got %d", e, a)
	}
}

// mustClient is a client of the Prometheus at url.
func mustClient(t testing.TB, url string) *fleet.Client {
	t.Helper()
	c, err := fleet.NewClient(fleet.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fleetJSON is fleet -o json over prom, decoded; a run that failed is the
// error to poll on, output that is not the JSON fails the test.
func fleetJSON(t *testing.T, prom string) (fleet.Fleet, error) {
	t.Helper()
	out, err := runCLI(t, "fleet", "--prometheus", prom, "-o", "json")
	if err != nil {
		return fleet.Fleet{}, err
	}
	var f fleet.Fleet
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatalf("fleet -o json: %v\n%s", err, out)
	}
	return f, nil
}
