package fleet

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// prometheusWith answers every query with one controller's series (its
// labels: namespace, controller and more) and its configuration with
// config; config "" answers 404, as Thanos Query does.
func prometheusWith(t *testing.T, labels, config string) *Client {
	t.Helper()
	series := `{"status":"success","data":{"resultType":"vector","result":[{"metric":{` + labels +
		`,"namespace":"demo","controller":"naive","backoff_column":"oldest_failure_seconds"},"value":[1,"5"]}]}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/api/v1/query"):
			_, _ = w.Write([]byte(series))
		case strings.HasSuffix(r.URL.Path, "/api/v1/status/config") && config != "":
			_, _ = w.Write([]byte(config))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(Config{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReadClusterFromExternalLabels: a Prometheus read directly does not
// add its external_labels to its answers, so no series has the cluster
// label; the server's own configuration names the cluster. A series'
// label wins, and a server that does not serve its configuration leaves
// the cluster empty.
func TestReadClusterFromExternalLabels(t *testing.T) {
	const config = `{"status":"success","data":{"yaml":"global:\n  scrape_interval: 1s\n  external_labels:\n    cluster: prod-east\n    region: eu\nscrape_configs: []\n"}}`
	for _, tc := range []struct {
		name, labels, config, clusterLabel string
		want, from                         string
	}{
		{"no label, the server's external label", `"job":"demo"`, config, "cluster", "prod-east", ClusterFromExternalLabels},
		{"another label named", `"job":"demo"`, config, "region", "eu", ClusterFromExternalLabels},
		{"the series' own label", `"cluster":"west"`, config, "cluster", "west", ""},
		{"no configuration served (Thanos Query)", `"job":"demo"`, "", "cluster", "", ""},
		{"no such external label", `"job":"demo"`, config, "dc", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read(context.Background(), prometheusWith(t, tc.labels, tc.config), Options{ClusterLabel: tc.clusterLabel})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Rows) != 1 || f.Rows[0].Cluster != tc.want || f.ClusterFrom != tc.from || len(f.Clusters) != 1 || f.Clusters[0] != tc.want {
				t.Errorf("rows %+v, clusters %q, from %q; want cluster %q from %q", f.Rows, f.Clusters, f.ClusterFrom, tc.want, tc.from)
			}
		})
	}
}
