package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
)

// fakePrometheus answers the table's query with one failing controller
// of cluster east, the worst keys' with none, the delays' with its retries
// of the last hour, and a Thanos warning.
func fakePrometheus(t *testing.T, queries *atomic.Int64) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries.Add(1)
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.Form.Get("query"), "worst_key") {
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[]}}`))
			return
		}
		if strings.Contains(r.Form.Get("query"), "rate_limiter_delay") {
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[
{"metric":{"cluster":"east","namespace":"demo","controller":"outage","backoff_column":"retries_1h"},"value":[1,"42"]},
{"metric":{"cluster":"east","namespace":"demo","controller":"outage","backoff_column":"delay_seconds_1h"},"value":[1,"63"]},
{"metric":{"cluster":"east","namespace":"demo","controller":"outage","backoff_column":"short_retries_1h"},"value":[1,"35"]}]}}`))
			return
		}
		_, _ = w.Write([]byte(`{"status":"success","warnings":["store 10.0.0.9:10901 down"],"data":{"resultType":"vector","result":[
{"metric":{"cluster":"east","namespace":"demo","controller":"outage","state":"backoff","backoff_column":"keys"},"value":[1,"4"]},
{"metric":{"cluster":"east","namespace":"demo","controller":"outage","backoff_column":"oldest_failure_seconds"},"value":[1,"125"]},
{"metric":{"cluster":"east","namespace":"demo","controller":"outage","backoff_column":"max_failures"},"value":[1,"7"]}]}}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestFleetCommand(t *testing.T) {
	var queries atomic.Int64
	url := fakePrometheus(t, &queries)
	// An instrumented controller's endpoint, which the demo's banner offers
	// ("Prometheus series (scrape them, then kubectl backoff fleet)").
	ep := httptest.NewServer(instrument.Handler())
	t.Cleanup(ep.Close)
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name             string
		args             []string
		wantOut, wantErr string // substrings; wantErr of stderr or the error
		wantQueries      int64
	}{
		{"table", []string{"--prometheus", url}, "east      demo        outage       4/4", "as of", 3},
		{"wide", []string{"--prometheus", url, "-o", "wide"}, "42           1.5s         7", "partial: 1 warning", 3},
		{"json", []string{"--prometheus", url, "-o", "json", "--prometheus-token-file", token}, `"retriesLastHour": 42`, "store 10.0.0.9:10901 down", 3},
		{"filtered out", []string{"--prometheus", url, "--cluster", "west"}, "CLUSTER", "", 3},
		{"show queries", []string{"--show-queries"}, "label_replace(max by (cluster, namespace, controller, state) (kubectl_backoff_keys) > 0", "", 0},
		{"cluster label", []string{"--show-queries", "--cluster-label", "k8s_cluster"}, "max by (k8s_cluster, namespace, controller)", "", 0},
		{"no prometheus", nil, "", "--prometheus is required", 0},
		{"bad url", []string{"--prometheus", "prometheus:9090"}, "", "--prometheus: prometheus URL", 0},
		{"bad sort", []string{"--prometheus", url, "--sort", "age"}, "", "--sort: unknown order \"age\"", 0},
		{"token twice", []string{"--prometheus", url, "--prometheus-token", "x", "--prometheus-token-file", token}, "", "--prometheus-token and --prometheus-token-file exclude each other", 0},
		{"password without user", []string{"--prometheus", url, "--prometheus-password-file", token}, "", "--prometheus-password-file needs --prometheus-username", 0},
		{"token and user", []string{"--prometheus", url, "--prometheus-token", "x", "--prometheus-username", "u"}, "", "--prometheus-token and --prometheus-username exclude each other", 0},
		{"prometheus CA", []string{"--prometheus", url, "--prometheus-ca-file", token}, "", "--prometheus-ca-file: certificate authority: " + token + ": no PEM certificate in it", 0},
		{"prometheus CA missing", []string{"--prometheus", url, "--prometheus-ca-file", filepath.Join(dir, "nope")}, "", "--prometheus-ca-file: certificate authority: open " + filepath.Join(dir, "nope"), 0},
		// kubectl's flags stay the cluster's: they are not read for the
		// Prometheus (a CA file for it that is no CA fails nothing here).
		{"kube CA is not the Prometheus'", []string{"--prometheus", url, "--certificate-authority", token}, "east      demo", "as of", 3},
		{"kube token is not the Prometheus'", []string{"--prometheus", url, "--token", "kube-token"}, "east      demo", "as of", 3},
		{"bad context map", []string{"--prometheus", url, "--context-map", "east"}, "", "--context-map \"east\": want CLUSTER=CONTEXT", 0},
		{"an endpoint, not a Prometheus", []string{"--prometheus", ep.URL + "/metrics"}, "", "--prometheus " + ep.URL + "/metrics is a kubectl-backoff endpoint, not a Prometheus: give the Prometheus (Thanos Query, Mimir) that scrapes the controllers' /metrics; to read this endpoint itself: kubectl backoff top --addr " + ep.URL, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			queries.Store(0)
			var out, errOut bytes.Buffer
			root := NewRootCommand(genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			root.SetArgs(append([]string{"fleet"}, tc.args...))
			err := root.Execute()
			stderr := errOut.String()
			if err != nil {
				stderr += err.Error()
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("stdout: want %q in\n%s", tc.wantOut, out.String())
			}
			if !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("stderr/error: want %q in\n%s", tc.wantErr, stderr)
			}
			if e, a := tc.wantQueries, queries.Load(); e != a {
				t.Errorf("queries: want %d, got %d", e, a)
			}
		})
	}
}

// TestFleetAttachArgs: enter runs top through the chosen context, in the
// row's namespace, with fleet's own --kubeconfig (else top would read
// $KUBECONFIG, where the context may not be).
func TestFleetAttachArgs(t *testing.T) {
	cf := genericclioptions.NewConfigFlags(true)
	o := &FleetOptions{cf: cf}
	r := fleet.Row{Cluster: "east", Namespace: "demo", Controller: "naive"}
	if e, a := "top --context prod-east --controller naive -n demo", strings.Join(o.attachArgs(r, "prod-east"), " "); e != a {
		t.Errorf("without --kubeconfig:\nwant %s\n got %s", e, a)
	}
	*cf.KubeConfig = "/etc/fleet.kubeconfig"
	if e, a := "top --context prod-east --controller naive --kubeconfig /etc/fleet.kubeconfig -n demo", strings.Join(o.attachArgs(r, "prod-east"), " "); e != a {
		t.Errorf("with --kubeconfig:\nwant %s\n got %s", e, a)
	}
}

// TestFleetHeaderCounts: the header counts in words, one cluster as "1
// cluster" (a single Prometheus, the common first try, printed "1 clusters"),
// and says where the cluster came from: the series' label, the server's
// external_labels, or nothing, with where to set it.
func TestFleetHeaderCounts(t *testing.T) {
	f := &fleet.Fleet{Server: "http://p:9090", ClusterLabel: "cluster", Clusters: []string{"east"},
		Rows: []fleet.Row{{Cluster: "east", Controller: "a"}}, Queries: 3, Warnings: []string{"store down"}}
	for _, tc := range []struct {
		clusters []string
		from     string
		want     string
	}{
		{[]string{"east"}, "", `: 1 controller in 1 cluster (by label "cluster"), 3 queries; partial: 1 warning`},
		{[]string{"east"}, fleet.ClusterFromExternalLabels, `(by label "cluster", from the server's external_labels)`},
		{[]string{""}, "", `(no series has label "cluster": set it in each cluster's Prometheus, global.external_labels, or name yours with --cluster-label)`},
	} {
		f.Clusters, f.ClusterFrom = tc.clusters, tc.from
		if got := fleetHeader(f); !strings.Contains(got, tc.want) {
			t.Errorf("fleetHeader = %q, want it to say %q", got, tc.want)
		}
	}
}

// TestContextForUnlabelledCluster: a row without a cluster label (one
// Prometheus, no external label) prints cluster "-", and enter's note says
// --context-map -=CONTEXT: that mapping is the one looked up for it.
func TestContextForUnlabelledCluster(t *testing.T) {
	m, err := parseContextMap([]string{"-=kind-local", "east=prod-east"}, "")
	if err != nil {
		t.Fatal(err)
	}
	o := &FleetOptions{contexts: m}
	for cluster, want := range map[string]string{"": "kind-local", "east": "prod-east"} {
		if got, ok := o.contextFor(cluster); !ok || got != want {
			t.Errorf("contextFor(%q) = %q, %v; want %q", cluster, got, ok, want)
		}
	}
}
