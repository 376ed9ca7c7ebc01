package logs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilclock "k8s.io/utils/clock"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// DefaultSince is how much history a stream asks for, so that the streaks
// under way when it starts are counted from further back.
const DefaultSince = time.Hour

// StreamConfig says whose logs to follow.
type StreamConfig struct {
	Clientset cluster.Clientset
	Target    cluster.Target
	Namespace string
	// Container is the container to read; defaults to the pod's
	// kubectl.kubernetes.io/default-container, else its first container.
	Container string
	// Since is how far back the first read of each pod starts. Defaults to
	// DefaultSince if unset.
	Since time.Duration
	// Tunnel spaces the reconnects and the looks for new pods, as the
	// port-forward tunnel does: Backoff doubling to Max.
	Tunnel cluster.TunnelOptions
	// Once reads each pod's log up to now and returns, for one-shot
	// commands (get, describe); otherwise the logs are followed.
	Once bool
}

// Follow streams the logs of every pod of cfg.Target (pods/log, follow,
// with the kubelet's timestamps) into the store until stop is called or ctx
// is done; stop returns once every stream has ended. A stream that ends or
// fails is resumed from its last line, after a backoff; pods that appear
// later (a rollout, a restart) are picked up. It fails only if the target
// resolves to no pod at the start. With cfg.Once, it reads each pod's log up
// to now before it returns, and stop has nothing left to do.
func (s *Store) Follow(ctx context.Context, cfg StreamConfig) (stop func(), err error) {
	if cfg.Since <= 0 {
		cfg.Since = DefaultSince
	}
	if cfg.Tunnel.Backoff <= 0 {
		cfg.Tunnel.Backoff = 500 * time.Millisecond
	}
	if cfg.Tunnel.Max <= 0 {
		cfg.Tunnel.Max = 30 * time.Second
	}
	if cfg.Tunnel.Clock == nil {
		cfg.Tunnel.Clock = utilclock.RealClock{}
	}
	pods, err := cluster.Resolve(ctx, cfg.Clientset, cfg.Target, cfg.Namespace, false, "")
	if err != nil {
		return nil, err
	}
	if cfg.Once {
		return func() {}, s.readOnce(ctx, cfg, pods)
	}
	runCtx, cancel := context.WithCancel(ctx)
	f := &follower{store: s, cfg: cfg, running: map[string]bool{}}
	opened := make(chan error, len(pods))
	for _, p := range pods {
		f.start(runCtx, p, opened)
	}
	stop = func() { cancel(); f.wg.Wait() }
	// Fail now, in words, when no pod's log can be opened at all (RBAC on
	// pods/log, a wrong container), rather than show an empty screen.
	var errs []error
	for range pods {
		select {
		case err := <-opened:
			if err != nil {
				errs = append(errs, err)
			}
		case <-ctx.Done():
			stop()
			return nil, ctx.Err()
		}
	}
	if len(errs) == len(pods) {
		stop()
		return nil, errors.Join(errs...)
	}
	f.wg.Go(func() { f.watchPods(runCtx) })
	return stop, nil
}

// follower keeps one stream per pod of the target.
type follower struct {
	store *Store
	cfg   StreamConfig
	wg    sync.WaitGroup

	mu      sync.Mutex
	running map[string]bool
}

// watchPods looks for new pods of the target every Tunnel.Max.
func (f *follower) watchPods(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.cfg.Tunnel.Clock.After(f.cfg.Tunnel.Max):
		}
		pods, err := cluster.Resolve(ctx, f.cfg.Clientset, f.cfg.Target, f.cfg.Namespace, false, "")
		if err != nil {
			continue
		}
		for _, p := range pods {
			f.start(ctx, p, nil)
		}
	}
}

// start follows p's log unless it is followed already; opened (may be nil)
// gets the result of its first attempt to open the stream.
func (f *follower) start(ctx context.Context, p cluster.Pod, opened chan<- error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running[p.String()] {
		return
	}
	f.running[p.String()] = true
	f.wg.Go(func() {
		f.follow(ctx, p, opened)
		f.mu.Lock()
		delete(f.running, p.String())
		f.mu.Unlock()
	})
}

// follow streams one pod's log, resuming after each end, until the pod is
// gone or ctx is done. The first attempt's result goes to opened.
func (f *follower) follow(ctx context.Context, p cluster.Pod, opened chan<- error) {
	report := func(err error) {
		if opened != nil {
			opened <- err
			opened = nil
		}
	}
	defer report(nil)
	pods := f.cfg.Clientset.CoreV1().Pods(p.Namespace)
	since := f.cfg.Tunnel.Clock.Now().Add(-f.cfg.Since)
	var last time.Time
	wait := f.cfg.Tunnel.Backoff
	for ctx.Err() == nil {
		pod, err := pods.Get(ctx, p.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			report(fmt.Errorf("pod %s: %w", p, err))
			return
		}
		opts := &corev1.PodLogOptions{Follow: true, Timestamps: true, SinceTime: &metav1.Time{Time: since}}
		if err == nil {
			opts.Container = f.container(pod)
		}
		if !last.IsZero() {
			opts.SinceTime = &metav1.Time{Time: last}
		}
		began := f.cfg.Tunnel.Clock.Now()
		rc, err := pods.GetLogs(p.Name, opts).Stream(ctx)
		if err != nil {
			report(fmt.Errorf("logs of pod %s: %w", p, err))
		} else {
			report(nil)
			_, at, _ := f.store.read(ctx, rc, last)
			rc.Close()
			if at.After(last) {
				last = at
			}
		}
		if f.cfg.Tunnel.Clock.Since(began) >= f.cfg.Tunnel.Max {
			wait = f.cfg.Tunnel.Backoff // it stayed up: start the backoff over
		}
		select {
		case <-ctx.Done():
			return
		case <-f.cfg.Tunnel.Clock.After(wait):
		}
		wait = min(2*wait, f.cfg.Tunnel.Max)
	}
}

// readOnce reads the last cfg.Since of every pod's log, concurrently.
func (s *Store) readOnce(ctx context.Context, cfg StreamConfig, pods []cluster.Pod) error {
	errs := make([]error, len(pods))
	var wg sync.WaitGroup
	for i, p := range pods {
		wg.Go(func() {
			c := cfg.Container
			if c == "" {
				if pod, err := cfg.Clientset.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{}); err == nil {
					c = container(cfg, pod)
				}
			}
			since := int64(cfg.Since / time.Second)
			rc, err := cfg.Clientset.CoreV1().Pods(p.Namespace).GetLogs(p.Name, &corev1.PodLogOptions{
				Timestamps: true, SinceSeconds: &since, Container: c,
			}).Stream(ctx)
			if err != nil {
				errs[i] = fmt.Errorf("logs of %s: %w", p, err)
				return
			}
			defer rc.Close()
			if _, _, err := s.read(ctx, rc, time.Time{}); err != nil {
				errs[i] = fmt.Errorf("logs of %s: %w", p, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// container picks the container whose log to read.
func (f *follower) container(pod *corev1.Pod) string { return container(f.cfg, pod) }

func container(cfg StreamConfig, pod *corev1.Pod) string {
	if cfg.Container != "" {
		return cfg.Container
	}
	if c := pod.Annotations["kubectl.kubernetes.io/default-container"]; c != "" {
		return c
	}
	if len(pod.Spec.Containers) > 0 {
		return pod.Spec.Containers[0].Name
	}
	return ""
}
