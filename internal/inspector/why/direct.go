package why

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// RuleAddr is a controller reached at the address the user gave: an operator run
// with `go run`, outside the cluster, whose pods no search can find.
const RuleAddr = "addr"

// Direct is the instrumented endpoints the user named by address (one
// or several: replicas of one controller, merged as the session merges
// pods). An object whose kind one of them reconciles is answered from it.
type Direct struct {
	Session *inspector.Session
	Addrs   []string
}

// controller is the endpoint's controller of kind gk with the key's
// backoff; nil when it runs none of that kind.
func (d *Direct) controller(ctx context.Context, a *Answer) (*Controller, *Backoff, error) {
	b, err := keyFromSession(ctx, d.Session, "", a.Object.groupKind(), a.Object.Key)
	if errors.Is(err, ErrNoController) {
		return nil, nil, nil
	}
	addrs := strings.Join(d.Addrs, ", ")
	c := &Controller{Rule: RuleAddr, How: "the endpoint the user named, at " + addrs, Target: d.Addrs[0], Instrumented: true}
	if err != nil {
		return c, nil, fmt.Errorf("the endpoint at %s: %w", addrs, err)
	}
	c.Name = b.Controller
	return c, b, nil
}
