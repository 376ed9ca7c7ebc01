package demo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// simulate plays the world around the controllers until ctx is done: the
// dependency's outages, users editing failing objects, and other writers
// touching the conflicts controller's objects.
func (d *Demo) simulate(ctx context.Context) error {
	go d.outages(ctx)
	go d.every(ctx, editEvery, d.userEdit)
	go d.every(ctx, touchEvery, func(ctx context.Context) {
		d.editRandom(ctx, scenarioIndex(conflictsName))
	})
	<-ctx.Done()
	return nil
}

// outages announces each outage window and opens it with a resync of every
// outage key (as an informer's periodic resync would), so that hundreds of
// keys hit the failing dependency together and back off together.
func (d *Demo) outages(ctx context.Context) {
	sched := d.env.dep.sched
	si := scenarioIndex(outageName)
	for {
		from, to := sched.window(time.Now())
		if !sleepUntil(ctx, from) {
			return
		}
		fmt.Fprintf(d.opts.Out, "%s outage: the inventory API answers 503 Service Unavailable for %v; %d outage keys resync and back off\n",
			time.Now().Format(time.TimeOnly), sched.outage.Round(time.Millisecond), d.counts[si])
		if d.kickAll(ctx, si) != nil {
			return
		}
		if !sleepUntil(ctx, to) {
			return
		}
		fmt.Fprintf(d.opts.Out, "%s recovered: backed-off keys return to idle as their retries come due\n",
			time.Now().Format(time.TimeOnly))
	}
}

// userEdit edits one failing key: one of the few naive keys a user is
// working on, or during an outage sometimes an outage one. The edit is a
// watch event, so the key is reconciled at once, but its failure count — the
// backoff — carries on.
func (d *Demo) userEdit(ctx context.Context) {
	naive, outage := scenarioIndex(naiveName), scenarioIndex(outageName)
	switch {
	case d.env.dep.sched.down(time.Now()) && (d.counts[naive] == 0 || d.env.rand.IntN(2) == 0):
		d.editRandom(ctx, outage)
	case d.counts[naive] > 0:
		d.editAmong(ctx, naive, editedKeys(d.counts[naive]))
	}
}

// editedKeys is how many of n naive keys users edit. Only a few: an edit
// every few seconds spread over every naive key would reach each one more
// often than its backoff grows, and the demo would never show a delay
// doubling up to the limiter's cap.
func editedKeys(n int) int {
	return min(n, max(1, n/5))
}

// editRandom bumps the generation of a random object of scenario si.
func (d *Demo) editRandom(ctx context.Context, si int) {
	d.editAmong(ctx, si, d.counts[si])
}

// editAmong bumps the generation of one of scenario si's first n objects.
func (d *Demo) editAmong(ctx context.Context, si, n int) {
	if n == 0 {
		return
	}
	name := objectName(scenarios[si].name, d.env.rand.IntN(n))
	if err := d.edit(ctx, si, name); err != nil && ctx.Err() == nil {
		fmt.Fprintf(d.opts.ErrOut, "demo: %v\n", err)
	}
}

// edit bumps an object's generation annotation as a user's change would. In a
// cluster the watch delivers the event; embedded, the demo sends it.
func (d *Demo) edit(ctx context.Context, si int, name string) error {
	key := client.ObjectKey{Namespace: d.opts.Namespace, Name: name}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var cm corev1.ConfigMap
		if err := d.writer.Get(ctx, key, &cm); err != nil {
			return err
		}
		gen, _ := strconv.Atoi(cm.Annotations[generationAnnotation])
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations[generationAnnotation] = strconv.Itoa(gen + 1)
		return d.writer.Update(ctx, &cm)
	})
	if err != nil {
		return fmt.Errorf("edit %s: %w", key, err)
	}
	if d.opts.cluster() {
		return nil
	}
	return d.kick(ctx, si, name)
}

// every runs fn at the speed-scaled interval until ctx is done. The interval
// has a floor, so a very high speed does not turn it into a busy loop.
func (d *Demo) every(ctx context.Context, interval time.Duration, fn func(context.Context)) {
	t := time.NewTicker(max(d.opts.scale(interval), minInterval))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn(ctx)
		}
	}
}

// sleepUntil waits until t; false if ctx was done first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}
