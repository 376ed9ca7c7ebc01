package why

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// eventCache keeps an object's Events for one Ask: the chain's walk and the
// object's own answer weigh the same Events, read once.
type eventCache struct {
	mu   sync.Mutex
	byID map[types.UID]eventsRead
}

type eventsRead struct {
	events []objstatus.Event
	err    error
}

// eventsOf reads u's Events once per Ask (nil when the asker reads none).
func (a *Asker) eventsOf(ctx context.Context, u *unstructured.Unstructured) ([]objstatus.Event, error) {
	if a.Events == nil {
		return nil, nil
	}
	a.cache.mu.Lock()
	r, ok := a.cache.byID[u.GetUID()]
	a.cache.mu.Unlock()
	if ok && u.GetUID() != "" {
		return r.events, r.err
	}
	ev, err := a.Events(ctx, u)
	a.cache.mu.Lock()
	if a.cache.byID == nil {
		a.cache.byID = map[types.UID]eventsRead{}
	}
	a.cache.byID[u.GetUID()] = eventsRead{ev, err}
	a.cache.mu.Unlock()
	return ev, err
}

// judgeWithEvents is judge, then the object's own Events weighed by the
// one events rule (objstatus.Verdict.JudgeObjectEvents, describe's too):
// FailedCreate events that keep recurring since the last change make a Job
// that kstatus calls Current not Current.
func (a *Asker) judgeWithEvents(ctx context.Context, u *unstructured.Unstructured, resource string) Verdict {
	v := a.judge(ctx, u, resource)
	if gvk := u.GroupVersionKind(); gvk.Kind == "Pod" && gvk.Group == "" {
		return v // judged by its containers: its events are not read
	}
	ev, _ := a.eventsOf(ctx, u) // a refused read is said by askOne for the object itself
	v.JudgeObjectEvents(u, ev, a.now())
	return v
}

func (a *Asker) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}
