package cli

import (
	"errors"
	"net/http"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
)

// olderSort is, for a default sort order, the one an endpoint older than it
// knows: retrying came after attention, which came after next (every
// endpoint's).
var olderSort = map[string]string{api.SortRetrying: api.SortAttention, api.SortAttention: api.SortNext}

// refusesSort reports whether err is an endpoint's 400 naming the sort
// parameter: the order is one it does not know.
func refusesSort(err error) bool {
	ae, ok := errors.AsType[*inspector.APIError](err)
	return ok && ae.Code == http.StatusBadRequest && ae.Field == "sort"
}
