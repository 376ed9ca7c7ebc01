package api

// DefaultPrefix is where the endpoint is mounted unless the server is told
// otherwise; every path below is relative to it.
const DefaultPrefix = "/debug/backoff/"

// Paging bounds of v1/keys.
const (
	// DefaultLimit is the page size when the limit parameter is absent.
	DefaultLimit = 100
	// MaxLimit is the largest page v1/keys returns.
	MaxLimit = 1000
	// MaxWindow bounds the rows the server keeps while it selects a page,
	// and so its memory per request: a page must lie within the first
	// MaxWindow keys (offset+limit ≤ MaxWindow) or the last MaxWindow (a
	// last page). Page through the middle with KeyList.Continue.
	MaxWindow = 10_000
)

// FingerprintFold is what an ErrorGroup's Fingerprint holds where the
// messages of the group differ (numbers, addresses, ids, quoted names).
const FingerprintFold = "…"

// MaxForgetReport bounds the keys a ForgetResponse lists.
const MaxForgetReport = 1000
