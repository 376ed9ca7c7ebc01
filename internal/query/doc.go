// Package query is the one query engine of kubectl-backoff's v1 API: it
// parses and validates v1/keys' and v1/errors' parameters (q, error, state,
// sort, limit, offset, continue), matches keys (smart case, bounded regular
// expressions), fingerprints and groups errors, and pages with continue
// tokens; and its Handler is the one HTTP layer of the v1 API (guard,
// pacing, admission, errors) over a Source. The instrument's endpoint, the
// log-mode and snapshot servers (each a Source behind NewHandler), the
// CLI's flag checks and the UI's filter line all call it, so a filter one
// accepts is a filter every one accepts, as apimachinery's labels.Parse
// serves kubectl and the API server alike. It imports the wire types and
// the standard library only.
//
// A source of keys is served by implementing Source (names, controllers, a
// View of the keys, one key) and mounting the handler:
//
//	h := query.NewHandler(src, query.Options{
//		States:        query.LogStates,
//		What:          "the log source",
//		ForgetRefusal: "read from the controller's log: nothing can reach its queue",
//	})
//	mux.Handle(api.DefaultPrefix, h)
//
// A source that holds its keys as wire values hands them over as
// KeysView(names, keys); the instrument copies its store a shard at a
// time instead, so that no list builds 100,000 full key views.
//
// A client checks what the user types before sending it:
//
//	if err := query.CheckPattern("q", typed); err != nil {
//		// show why; the server would refuse it the same way
//	}
//
// Errors are *Error: a status and the field at fault, which a client maps
// to its own flag (api.ErrorBody.Field), never reading the message.
package query
