package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"k8s.io/utils/clock"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// followEvery is how often get -w and describe -w read the page again
// when no watch tells them: the endpoint's own watch tick.
const followEvery = time.Second

// follower re-reads a page as kubectl's --watch does: after the list, the
// rows that change, as they change. Where the session watches (one live
// endpoint that offers it) a read follows each watch event and is served
// from the watch's mirror; elsewhere (older endpoints, logs, a stream
// down) the clock's tick lists again. Either way a change shows within
// one tick.
type follower struct {
	s     *inspector.Session
	clock clock.WithTicker
	// seen is each row as last printed, encoded: what a change is told by
	// (absolute times only, so a countdown moving is not a change).
	seen map[string][]byte
}

// newFollower starts following on s: it watches where the endpoint says
// it can (live says s is an endpoint's, not a log's or a snapshot's).
func newFollower(ctx context.Context, s *inspector.Session, live bool, clk clock.WithTicker) *follower {
	if clk == nil {
		clk = clock.RealClock{}
	}
	if live {
		s.Watch(ctx)
		_, _ = s.Overview(ctx) // the capabilities: whether to watch
	}
	return &follower{s: s, clock: clk, seen: map[string][]byte{}}
}

// changed notes list's rows and returns those that changed since the last
// call (all of them, the first time).
func (f *follower) changed(list *inspector.KeyList) *inspector.KeyList {
	out := &inspector.KeyList{ServerTime: list.ServerTime, Total: list.Total, Matched: list.Matched}
	for _, k := range list.Items {
		b, _ := json.Marshal(k)
		id := k.Pod + "\x00" + k.Controller + "\x00" + k.Key.Key
		if old, ok := f.seen[id]; !ok || string(old) != string(b) {
			out.Items = append(out.Items, k)
		}
		f.seen[id] = b
	}
	return out
}

// follow calls read after every watch event or tick until ctx ends; a
// read's error is said on errOut and the following goes on, as kubectl's
// watch goes on through a broken connection.
func (f *follower) follow(ctx context.Context, errOut io.Writer, read func(ctx context.Context) error) error {
	t := f.clock.NewTicker(followEvery)
	defer t.Stop()
	events := f.s.Events() // nil when not watching: the tick alone
	for {
		// At once the first time: the read opens the watch it is served
		// from, whose events then drive the next.
		if err := read(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintln(errOut, "Warning: "+err.Error())
		}
		select {
		case <-ctx.Done():
			return nil
		case <-events:
		case <-t.C():
		}
	}
}

// follow is get -w: the list printed, then the rows that change, as
// kubectl's watch prints them: in the table, a batch of rows without the
// header, aligned to the columns before (one table for the whole stream,
// flushed after each batch, its widths remembered and only widened); with
// -o json, yaml, name or a template, each key as its own object.
func (o *GetOptions) follow(ctx context.Context, s *inspector.Session, list *inspector.KeyList) error {
	f := newFollower(ctx, s, !o.fromLogs.enabled(), o.clock)
	wide, pods := o.Output == "wide", s.ClusterWide()
	// On a terminal, the columns of the first list, fitted as get's table
	// is (fitKeyCols), for the whole stream; a later row too wide is cut,
	// and CONTROLLER stays unless --controller names one.
	var cols keyCols
	out := o.Out
	if width := screenWidth(o.Out); width > 0 && !wide {
		cols, out = fitKeyCols(list, pods, o.Controller != "", width), &lineCutter{w: o.Out, width: width}
	}
	tw := newTable(text.PrintableWriter(out)) // text from the cluster: see text.Printable
	print := func(l *inspector.KeyList, header bool) error {
		if !o.output.text() {
			for _, k := range l.Items {
				if err := o.output.print(o.Out, k, kindKey, k.Key.Key); err != nil {
					return err
				}
			}
			return nil
		}
		writeKeyTableCols(tw, l, wide, pods, header, cols)
		return tw.Flush()
	}
	if err := print(f.changed(list), true); err != nil {
		return err
	}
	return f.follow(ctx, o.ErrOut, func(ctx context.Context) error {
		l, err := s.Keys(ctx, o.query)
		if err != nil {
			return err
		}
		if c := f.changed(l); len(c.Items) > 0 {
			return print(c, false)
		}
		return nil
	})
}
