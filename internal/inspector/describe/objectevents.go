package describe

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// Events lists the Events about an object the caller already read (newest
// first, at most ten), as describe shows them: `why` reads the object
// itself, for its managedFields, and reuses this for its Events.
func (r *ObjectReader) Events(ctx context.Context, u *unstructured.Unstructured) ([]objstatus.Event, error) {
	return r.events(ctx, u)
}
