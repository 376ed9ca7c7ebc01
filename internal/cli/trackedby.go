package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// Which controller tracks a key, for the commands that take KEYs
// (describe, forget): found across them all, and said when --controller
// named the wrong one.

// controllerOfKeys is what --controller does for commands that take KEYs
// (describe, forget): findController finds it otherwise.
const controllerOfKeys = "only needed when a KEY is tracked by several controllers: without it, each KEY goes to the controller that tracks it"

// findController is the controller that tracks key, found across them all
// as describe does when --controller is not given.
func findController(ctx context.Context, s *inspector.Session, key string) (string, error) {
	c, err := s.FindKey(ctx, key)
	return c, withControllerHint(err)
}

// trackedBy adds to a controller's 404 for keys the other controllers of
// the endpoint that track them: --controller named the wrong one. The
// error comes back in explainError's words, since the hint is not the
// endpoint's.
func (o *attachOptions) trackedBy(ctx context.Context, s *inspector.Session, controller string, keys []string, err error) error {
	if ae, ok := errors.AsType[*inspector.APIError](err); !ok || ae.Code != http.StatusNotFound || controller == "" {
		return err
	}
	var others, found []string // the other controllers, and "KEY by CONTROLLER"
	for _, k := range keys {
		c, ferr := s.FindKey(ctx, k)
		have := []string{c}
		if amb, ok := errors.AsType[*inspector.AmbiguousKeyError](ferr); ok {
			have = amb.Controllers
		} else if ferr != nil {
			continue
		}
		have = slices.DeleteFunc(have, func(c string) bool { return c == controller })
		for _, c := range have {
			if !slices.Contains(others, c) {
				others = append(others, c)
			}
		}
		if len(have) > 0 {
			found = append(found, k+" by "+strings.Join(have, ", "))
		}
	}
	what := "tracked by " + strings.Join(others, ", ")
	if len(keys) > 1 {
		what = "tracked elsewhere: " + strings.Join(found, "; ")
	}
	switch len(others) {
	case 0:
		return o.namespacedHint(ctx, s, controller, keys, err)
	case 1:
		return fmt.Errorf("%v (%s: --controller %s)", o.explainError(err), what, others[0])
	}
	return fmt.Errorf("%v (%s: drop --controller, and each key's is found)", o.explainError(err), what)
}

// namespacedHint adds to a controller's 404 for one key given without its
// namespace the key it most likely meant: the one key of that controller
// that ends so (naive-00001 for demo/naive-00001). -n selects the pods to
// attach to; it does not qualify keys.
func (o *attachOptions) namespacedHint(ctx context.Context, s *inspector.Session, controller string, keys []string, err error) error {
	if len(keys) != 1 || strings.Contains(keys[0], "/") {
		return err
	}
	named := s.KeysNamed(ctx, controller, keys[0])
	if len(named) != 1 {
		return err
	}
	return fmt.Errorf("%v; a namespaced object's key is NAMESPACE/NAME: did you mean %s?", o.explainError(err), named[0])
}

// withControllerHint says what to do about a key several controllers track.
func withControllerHint(err error) error {
	if amb, ok := errors.AsType[*inspector.AmbiguousKeyError](err); ok {
		return fmt.Errorf("%w: name one with --controller", amb)
	}
	return err
}
