package cli

import (
	"io"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestDescribeUserFixFirst: a key failing on a permanent error (the
// demo's demo/naive-00001: an Invalid spec) is advised as top and why
// advise it, "Fix what the error names", first; the code change after it,
// labelled as the controller's author's. describe said only "return a
// TerminalError … instead of retrying" for the key top and why told to fix.
func TestDescribeUserFixFirst(t *testing.T) {
	// An hour's delay: with client-go's 5ms the retry comes due before
	// describe reads the key, which is then "queued" (a loaded CI run),
	// and a queued key is advised to wait, not to be fixed.
	hour := workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Hour, time.Hour)
	ep := failingEndpointErr(t, hour, apierrors.NewBadRequest("spec.storageClass must be set"))
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cmd := NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--addr", ep.URL, "widgets/down-1"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("describe: %v", err)
	}
	s := strings.Join(strings.Fields(out.String()), " ") // unwrapped
	fix, author := strings.Index(s, "Fix what the error names"), strings.Index(s, "For the controller's author: record it as a status condition")
	if fix < 0 || author < fix || strings.Index(s, "TerminalError") < author {
		t.Errorf("describe's advice:\n%s\nwant the user's fix first, then the author's note, labelled", out)
	}
}
