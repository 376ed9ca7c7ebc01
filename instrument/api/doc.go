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
//
// Paging: v1/keys returns at most MaxLimit keys from offset. The page must
// lie within the first MaxWindow keys or the last MaxWindow (the server
// keeps that many rows while it selects a page, so its memory stays bounded
// however many keys it tracks); an offset in between is refused. To page
// through the middle, pass back KeyList.Continue as the continue parameter
// with the same controller, q, state and sort: the next page holds the keys
// that sort after the previous page's last, as the Kubernetes API's continue
// does. Keys that change state between pages may move.
//
// Busy: the server computes a bounded number of lists at once. A request it
// cannot start soon is answered 429 TooManyRequests with a Retry-After (in
// seconds): wait that long and retry, a few times. KeyList.Age and
// ErrorGroupList.Age say how old a shared answer is.
//
// Keys that are not valid UTF-8 cannot travel in JSON as they are: such a
// Key carries a Handle, which v1/key (handle parameter) and v1/forget
// (ForgetRequest.Handles) accept in its place.
//
// Forget is a POST with Content-Type: application/json; a request with a
// foreign Origin, or addressed to a Host that is not the endpoint's (DNS
// rebinding), is refused with 403 (every Origin header is checked). A
// forget is applied only while its request is open: one whose client
// closed (or half-closed) its side before is not applied, and answered 499
// ClientClosedRequest, as any request its client closed is (never a 5xx);
// once applied, it stands and is answered 200 whether or not the client
// still reads.
//
// Every parameter is given once (a doubled one is a 400 naming it, watch
// and resourceVersion too); a resourceVersion no watch of the query gave
// yet is a 400, one too old to resume from a 410 Gone.
package api
