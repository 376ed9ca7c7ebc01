package cli

import (
	"context"
	"fmt"
	"regexp"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// follow is describe -w: after the description, the key's row is followed
// as get -w follows a page — the page of this one key (an anchored
// pattern, its controller) — and each time the row changes, the key is
// described again, after a separator. A change shows within one tick.
func (o *DescribeOptions) follow(ctx context.Context, s *inspector.Session, objects *describe.ObjectReader, first *describe.Description, run explain.Session, why string) error {
	key, controller := first.Key.Key.Key, first.Key.Controller
	q := inspector.KeyQuery{Controller: controller, Q: "~^" + regexp.QuoteMeta(key) + "$", Sort: "key", Limit: 10}
	f := newFollower(ctx, s, !o.fromLogs.enabled(), o.clock)
	only := func(l *inspector.KeyList) *inspector.KeyList {
		out := &inspector.KeyList{ServerTime: l.ServerTime}
		for _, k := range l.Items {
			if k.Key.Key == key {
				out.Items = append(out.Items, k)
			}
		}
		return out
	}
	// The row as the description had it: a change made before the first
	// read of the page is a change, not the starting point.
	row := first.Key.Key
	row.History = nil // a page's rows carry none
	f.changed(&inspector.KeyList{Items: []inspector.PodKey{{Key: row, Pod: first.Key.Pod}}})
	return f.follow(ctx, o.ErrOut, func(ctx context.Context) error {
		l, err := s.Keys(ctx, q)
		if err != nil {
			return err
		}
		if len(f.changed(only(l)).Items) == 0 {
			return nil
		}
		d, err := describe.Describe(ctx, s, controller, key, objects)
		if err != nil {
			return fmt.Errorf("describe %s: %w", key, err)
		}
		d.Diagnosis = d.Diagnosis.For(run)
		fmt.Fprintln(o.Out, "---")
		printDescription(o.Out, d, why)
		printLogNote(o.Out, d.Key.Key, d.Source, d.Controller, o.fromLogs.source == fromTarget)
		return nil
	})
}
