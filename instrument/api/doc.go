// Package api holds the wire types of kubectl-backoff's debug endpoint, v1,
// and nothing else: what the instrument package serves and what clients
// (kubectl backoff, its UI, scripts) read. It links no controller-runtime, as
// k8s.io/api stands apart from client-go.
//
// A client reads the keys of one controller in backoff, most failures first:
//
//	resp, err := http.Get("http://127.0.0.1:8082" + api.DefaultPrefix +
//		"v1/keys?controller=widget&state=backoff&sort=" + api.SortFailures)
//	...
//	var list api.KeyList
//	err = json.NewDecoder(resp.Body).Decode(&list)
//	for _, k := range list.Items {
//		fmt.Println(k.Key, k.State, k.Failures, k.NextRetryAt.Sub(list.ServerTime))
//	}
//
// Every response carries ServerTime: count down from it, never from the
// client's clock. Errors come as ErrorResponse with the status code to match.
// Fields added within v1 are optional; a client ignores what it does not know.
package api
