package why

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// TestNotTrackedWording: an endpoint whose controllers of the kind do not
// track the key says so once: "none of controllers naive, outage tracks
// key …", not "tracks no key" after "none of" (seen on the demo's six
// ConfigMap controllers); one controller: "controller "naive" tracks no key …".
func TestNotTrackedWording(t *testing.T) {
	for _, tc := range []struct {
		controllers []string
		want        string
	}{
		{[]string{"naive", "outage"}, "none of controllers naive, outage tracks key team-a/plain: it has not failed on it"},
		{[]string{"naive"}, `controller "naive" tracks no key team-a/plain: it has not failed on it`},
	} {
		reg := instrument.NewRegistry()
		for _, name := range tc.controllers {
			instrument.New(name, instrument.Options{Object: &corev1.ConfigMap{}, Registry: reg})
		}
		s := inspector.InProcessSession(nil, inspector.NamedHandler{Name: "local", Handler: instrument.NewHandler(instrument.HandlerOptions{Registry: reg, AllowedHosts: []string{"in-process"}})})
		b, err := keyFromSession(context.Background(), s, "", schema.GroupKind{Kind: "ConfigMap"}, "team-a/plain")
		if err != nil || b == nil || !strings.HasPrefix(b.NotTracked, tc.want) {
			t.Errorf("%v: backoff %+v, %v; want NotTracked to begin %q", tc.controllers, b, err, tc.want)
		}
	}
}
