// Package fleet reads every instrumented controller of every cluster from
// the Prometheus that already scrapes them (Prometheus, Thanos Query, Mimir:
// anything that serves the Prometheus HTTP API's /api/v1/query), instead of
// a port-forward per controller.
//
//	c, err := fleet.NewClient(fleet.Config{URL: "https://thanos.example.com"})
//	f, err := fleet.Read(ctx, c, fleet.Options{ClusterLabel: "cluster"})
//	for _, r := range f.Rows { fmt.Println(r.Cluster, r.Namespace, r.Controller, r.OldestFailureSeconds) }
//
// Guarantees:
//   - the cost of a read is fixed by its panels, never by the number of
//     controllers: one instant query for the table, one for the worst
//     keys and one for the rate limiter's retry delays (Queries lists
//     them, as pasted into Grafana), all evaluated at the same time;
//   - a server's own words are kept: a 5xx, a PromQL error or a Thanos
//     partial-response warning is returned (APIError, Fleet.Warnings) with
//     the message the server wrote, and errors name no flag;
//   - text read from the server is returned as read: printers escape it.
//
// It links no controller-runtime and no Prometheus client library: the API
// is small enough that a plain net/http client reads it.
package fleet
