package inspector

import (
	"context"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// ForgetEach sends each of reqs (one per controller) in order, and goes on
// past a failure: a forget already done cannot be taken back, so stopping
// at the first error would leave the user not knowing which controllers
// were forgotten and which were never asked. This is kubectl delete's rule
// for many objects (cli-runtime's ContinueOnErrorVisitor, aggregated as
// utilerrors.NewAggregate): act on every one, then report every failure.
//
// resps are the answers of the requests that succeeded, in request order
// (a replica-merged answer that is partial is kept, and its failure
// reported too). err is nil when every request succeeded, else a
// ForgetFailures naming each controller that failed.
func (s *Session) ForgetEach(ctx context.Context, reqs []api.ForgetRequest) (resps []*api.ForgetResponse, err error) {
	var failed ForgetFailures
	for _, req := range reqs {
		resp, err := s.Forget(ctx, req)
		if resp != nil {
			resps = append(resps, resp)
		}
		if err != nil {
			failed = append(failed, &ForgetFailure{Controller: req.Controller, Err: err})
		}
	}
	if len(failed) == 0 {
		return resps, nil
	}
	return resps, failed
}

// ForgetFailure is one controller's failed forget in ForgetEach.
type ForgetFailure struct {
	// Controller is the controller the request was for.
	Controller string
	// Err is the endpoint's (or the transport's) error, as Forget returned it.
	Err error
}

// Error names the controller: the endpoint's message does not always
// (a read-only endpoint refuses for all its controllers alike).
func (f *ForgetFailure) Error() string { return f.Controller + ": " + f.Err.Error() }

// Unwrap is Err, so that IsForbidden and errors.As see the endpoint's error.
func (f *ForgetFailure) Unwrap() error { return f.Err }

// ForgetFailures are the failed forgets of one ForgetEach, in request
// order; errors.Is and errors.As look into each, as into errors.Join's.
type ForgetFailures []*ForgetFailure

// Error is each failure on its own line, as errors.Join writes them.
func (fs ForgetFailures) Error() string {
	lines := make([]string, len(fs))
	for i, f := range fs {
		lines[i] = f.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap is the failures, for errors.Is and errors.As.
func (fs ForgetFailures) Unwrap() []error {
	out := make([]error, len(fs))
	for i, f := range fs {
		out[i] = f
	}
	return out
}

// Controllers names the controllers that failed, in request order.
func (fs ForgetFailures) Controllers() []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Controller
	}
	return out
}
