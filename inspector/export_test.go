package inspector

// MaxCalls is maxCalls for the external tests, which check the bound.
const MaxCalls = maxCalls
