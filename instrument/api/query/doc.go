// Package query is the one query engine of kubectl-backoff's v1 API: it
// parses and validates v1/keys' and v1/errors' parameters (q, error, state,
// sort, limit, offset, continue), matches keys (smart case, bounded regular
// expressions), fingerprints and groups errors, and pages with continue
// tokens. The instrument's endpoint, the log-mode and snapshot servers
// (through NewReadHandler), the CLI's flag checks and the UI's filter line
// all call it, so a filter one accepts is a filter every one accepts, as
// apimachinery's labels.Parse serves kubectl and the API server alike. It
// imports the wire types and the standard library only.
//
// A server answers v1/keys with it:
//
//	v, err := query.ParseRaw(r.URL.RawQuery)
//	...
//	q, err := query.ParseKeys(v, api.States) // a 400 naming its field
//	...
//	p := query.NewPager(q, controllerNames)
//	for i, k := range keys {
//		p.Offer(ctrlIndex, k.Key, lastError, state, &rankInput, i)
//	}
//	rows, err := p.Page()
//	...
//	list.Continue = p.Continue(rows)
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
