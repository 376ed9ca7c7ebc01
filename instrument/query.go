package instrument

import (
	"net/url"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api/query"
)

// The endpoint's parameters are parsed and checked by the one query engine
// (instrument/api/query), which the log and snapshot servers, the CLI and
// the UI call too; this file only adapts its errors.

// parseKeyQuery validates the v1/keys parameters. Every error names the
// parameter at fault. A controller's keys are never unknown: that state is
// a log's.
func parseKeyQuery(v url.Values) (*query.Keys, error) {
	return query.ParseKeys(v, api.States)
}
