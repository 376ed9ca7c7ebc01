package logs

import (
	"strings"
	"time"
)

// Crossplane providers run crossplane-runtime's managed reconciler
// (pkg/reconciler/managed/reconciler.go, read at v1.17.0), which never
// returns an error for a failed call to the external API: it logs the
// failure at debug level — written only when the provider runs with
// --debug, through the provider's own logger ("provider-aws"), with the
// error in "error" — and returns reconcile.Result{Requeue: true} with a nil
// error (unless the status update that follows fails). controller-runtime
// then logs no "Reconciler error" but requeues the key rate-limited all the
// same (pkg/internal/controller/controller.go, reconcileHandler: case
// result.Requeue → AddRateLimited), so each such line is a failure the
// limiter counts. A RequeueAfter (the poll interval, after "External
// resource is up to date") makes controller-runtime Forget the key, and so
// does an empty result ("Successfully deleted managed resource").
//
// The key is in "request": "/name" (reconcile.Request's String, a cluster-
// scoped name) in releases up to 2023, {"name": …} since (apimachinery's
// NamespacedName.MarshalLog); the controller is "controller", which the
// managed reconciler names "managed/" + the lower-cased kind
// (ControllerName: "managed/role.iam.aws.crossplane.io", or with upjet's
// kinds "managed/ec2.aws.upbound.io/v1beta1, kind=networkacl").
var crossplaneMessages = []message{
	// Requeue: true after the error is logged and the status updated.
	{text: "Cannot observe external resource", what: ErrorLine},
	{text: "Cannot create external resource", what: ErrorLine},
	{text: "Cannot update external resource", what: ErrorLine}, // logged without its error
	{text: "Cannot delete external resource", what: ErrorLine},
	{text: "Cannot connect to provider", what: ErrorLine},
	{text: "Cannot resolve managed resource references", what: ErrorLine},
	{text: "Cannot initialize managed resource", what: ErrorLine},
	{text: "Cannot publish connection details", what: ErrorLine},
	{text: "Cannot unpublish connection details", what: ErrorLine},
	{text: "Cannot add finalizer", what: ErrorLine},
	{text: "Cannot remove managed resource finalizer", what: ErrorLine},
	{text: "cannot update managed resource annotations", what: ErrorLine}, // errUpdateManagedAnnotations
	{text: "cannot update managed resource", what: ErrorLine},             // errUpdateManaged
	// Requeue: true without an error: through the limiter all the same.
	{text: "Successfully requested creation of external resource", what: RequeueLine},
	{text: "Successfully requested deletion of external resource", what: RequeueLine},
	{text: "Waiting for external resource existence to be confirmed", what: RequeueLine},
	// RequeueAfter: the poll interval, stated as the time it ends.
	{text: "External resource is up to date", what: RequeueAfterLine, afterField: true},
	{text: "Successfully requested update of external resource", what: RequeueAfterLine, afterField: true},
	{text: "Skipping update due to managementPolicies. Reconciliation succeeded", what: RequeueAfterLine, afterField: true},
	// An empty result: controller-runtime forgets the key.
	{text: "Successfully deleted managed resource", what: SuccessLine},
}

// crossplaneName is the Crossplane family's name, which the diagnostics and
// the limiter's description use.
const crossplaneName = "Crossplane"

// crossplaneManaged is how the managed reconciler's controllers are named
// (managed.ControllerName).
const crossplaneManaged = "managed/"

// crossplaneLimiter is the limiter a provider's managed reconcilers run:
// crossplane-runtime's pkg/controller Options.ForControllerRuntime sets
// ratelimiter.NewController(), workqueue.NewItemExponentialFailureRateLimiter
// (1s, 60s), alone — no bucket (pkg/ratelimiter/default.go, v1.17.0). The
// provider's --max-reconcile-rate bucket (ratelimiter.NewGlobal, rps with a
// burst of rps·10) is not the queue's: ratelimiter.NewReconciler answers a
// reconcile it holds back with RequeueAfter and logs nothing, so a log
// cannot show it. (Older releases' NewDefaultManagedRateLimiter took the max
// of the same exponential and that bucket: the per-item half is the same.)
// Zero for a controller that is not a managed reconciler.
func crossplaneLimiter(controller string, _ time.Time) Limiter {
	if !strings.HasPrefix(controller, crossplaneManaged) {
		return Limiter{}
	}
	return Limiter{BaseDelay: time.Second, MaxDelay: time.Minute}
}

// crossplaneMarkers are the words every Crossplane message above holds, at
// least one (see markers).
var crossplaneMarkers = [][]byte{[]byte("xternal resource"), []byte("managed resource"), []byte("Cannot connect to provider"),
	[]byte("connection details"), []byte("Cannot add finalizer")}

// crossplaneFailures are the Crossplane messages of failures (see
// failMarkers): a line with one that cannot be read is unreadable.
func crossplaneFailures() []string {
	var out []string
	for _, m := range crossplaneMessages {
		if m.what == ErrorLine {
			out = append(out, m.text)
		}
	}
	return out
}

// requeueAfter is the RequeueAfter a line states as the time it ends (the
// managed reconciler's "requeue-after": time.Now().Add(reconcileAfter), in
// the encoder's time format: an epoch float or an ISO 8601 string), from
// the line's time at. Rounded to the millisecond: the two clocks are read
// microseconds apart. Zero when either time is unknown.
func requeueAfter(at time.Time, until string) time.Duration {
	end := parseTime(until)
	if at.IsZero() || end.IsZero() || !end.After(at) {
		return 0
	}
	return end.Sub(at).Round(time.Millisecond)
}
