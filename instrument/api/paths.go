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
)

// MaxForgetReport bounds the keys a ForgetResponse lists.
const MaxForgetReport = 1000
