package view

import (
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// fold is what the endpoint's error fingerprint (v1/errors) holds where it
// folded a number, address, id or quoted name; a lone fold gathers the
// rarest errors beyond the endpoint's bound.
const fold = api.FingerprintFold

// FingerprintFilter is a v1/keys error filter that selects the keys whose
// last error has this fingerprint: the engine's one rule.
func FingerprintFilter(fp string) string { return query.FingerprintFilter(fp) }
