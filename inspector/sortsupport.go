package inspector

import (
	"errors"
	"net/http"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// SortRefused reports whether err, the answer to a page sorted by order,
// says the server does not know that order — from what the server states,
// never from its message's words: the server's controllers list the orders
// they accept (api.Capabilities.Sorts) and a 400 names its field. A server
// older than both (it lists no orders, its 400 names no field) can only
// have refused the sort: the filter was checked by the same engine as it
// was typed, and the states and controller come from the server itself.
func SortRefused(err error, order string, overviews ...*Overview) bool {
	ae, ok := errors.AsType[*APIError](err)
	if !ok || ae.Code != http.StatusBadRequest {
		return false
	}
	if ae.Field != "" {
		return ae.Field == "sort"
	}
	for _, ov := range overviews { // the newest first
		if ov != nil {
			if accepts, known := ov.AcceptsSort(order); known {
				return !accepts
			}
			break
		}
	}
	return order != api.SortNext // the default every server knows
}

// OlderSort is, for a default sort order, the one an endpoint older than
// it knows: retrying came after attention, which came after next (every
// endpoint's). ok is false for an order with none before it.
func OlderSort(order string) (older string, ok bool) {
	older, ok = olderSorts[order]
	return older, ok
}

var olderSorts = map[string]string{api.SortRetrying: api.SortAttention, api.SortAttention: api.SortNext}
