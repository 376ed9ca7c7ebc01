package logs

import (
	"strings"
	"time"
)

// fluxLimiter is the limiter of Flux's controllers: fluxcd/pkg/runtime
// controller.GetRateLimiter, a per-item exponential from --min-retry-delay
// (750ms) to --max-retry-delay (15m) with no bucket (rate_limiter.go,
// read at v0.117.0). The flags came in runtime v0.14.0 (fluxcd/pkg#256,
// merged 2022-04-12, in the controllers' releases of the weeks after);
// before, Flux ran controller-runtime's default (5ms..1000s), which a line
// dated before fluxRetryFlags keeps (zero). A line without a time is taken
// as recent. A failure Flux logs returns RequeueAfter and states its next
// try; the limiter paces only errors controller-runtime logs for it.
func fluxLimiter(_ string, at time.Time) Limiter {
	if !at.IsZero() && at.Before(fluxRetryFlags) {
		return Limiter{}
	}
	return Limiter{BaseDelay: 750 * time.Millisecond, MaxDelay: 15 * time.Minute}
}

// fluxRetryFlags is when Flux's --min-retry-delay/--max-retry-delay
// defaults were released (fluxcd/pkg runtime v0.14.0).
var fluxRetryFlags = time.Date(2022, 4, 12, 0, 0, 0, 0, time.UTC)

// certManagerLimiter is the limiter cert-manager's controllers set
// (pkg/controller/util.go): DefaultCertificateRateLimiter, 1s..30s, for the
// certificates-* controllers, DefaultItemBasedRateLimiter, 5s..5m, for the
// rest; its ACME orders and challenges have their own, not known here.
// Before v1.3 the certificates controllers were named CertificateIssuing,
// CertificateKeyManager, … with the same 1s..30s (v1.2.0's
// pkg/controller/certificates/*: NewItemExponentialFailureRateLimiter(1s,
// 30s)); "certificaterequests", lower-case, is not one of them.
func certManagerLimiter(controller string, _ time.Time) Limiter {
	switch {
	case strings.HasPrefix(controller, "certificates-"), strings.HasPrefix(controller, "Certificate"):
		return Limiter{BaseDelay: time.Second, MaxDelay: 30 * time.Second}
	case controller == "orders" || controller == "challenges":
		return Limiter{}
	}
	return Limiter{BaseDelay: 5 * time.Second, MaxDelay: 5 * time.Minute}
}
