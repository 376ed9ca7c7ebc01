package logs

import (
	"os"
	"testing"
	"time"
)

func TestHandlerNamed(t *testing.T) {
	for _, c := range []struct{ err, want string }{
		{`handler need-a-cert: services "webhook-service" not found`, "need-a-cert"},
		{`handler system-upgrade-controller: Get https://update.k3s.io/v1-release/channels/latest: dial tcp`, "system-upgrade-controller"},
		{`handler helm-controller-chart-registration: helmcharts.helm.cattle.io "traefik" not found`, "helm-controller-chart-registration"},
		// Words, not a handler's registered name: no name.
		{`handler for pod default/x: not ready`, ""},
		{`handler failed: boom`, "failed"}, // the shape: one word, then ": "
		{`handler: boom`, ""},
		{`the handler need-a-cert: boom`, ""},
		{`handler need-a-cert failed`, ""},
		{"handler need\x1b[2J: boom", ""},
	} {
		if got := handlerNamed(c.err); got != c.want {
			t.Errorf("handlerNamed(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}

// Wrangler's controllers (lasso's shared controller) log "error syncing
// 'KEY': handler NAME: ERR, requeuing", with no controller field and no
// logger name; the caller's file, where one is stamped, is lasso's
// controller.go for every controller. The controller is the handler the
// error names, as its author registered it, and the key says where that
// came from; it was "unknown" (plain text, logrus) and "controller"
// (klog's controller.go:135). Rancher's need-a-cert (batch3/75), k3s'
// svccontroller in klog through journald (batch4/322), Harvester's in
// logrus' logfmt (batch10/212).
func TestControllerIsTheHandlerItsErrorNames(t *testing.T) {
	for _, c := range []struct{ file, key, want string }{
		{"batch3/75-rancher-wrangler-error-syncing-seven-keys.log", "validating-webhook-configuration", "need-a-cert"},
		{"batch4/322-k3s-journald-klog-wrangler-svccontroller-two-keys.log", "kube-system/traefik", "svccontroller"},
		{"batch10/212-harvester-logrus-wrangler-error-syncing-six-keys-cluster-scoped.log", "ssl-certificates", "harvester-setting-controller"},
	} {
		t.Run(c.want, func(t *testing.T) {
			b, err := os.ReadFile("testdata/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			s := readLog(t, time.Date(2026, 12, 7, 23, 0, 0, 0, time.UTC), string(b))
			names := s.names()
			if len(names) != 1 || names[0] != c.want {
				t.Fatalf("controllers %q; want only %q, the handler its errors name", names, c.want)
			}
			k := keyDetail(t, s, c.want, c.key)
			if k.ControllerWords != "handler "+c.want {
				t.Errorf("controller words %q; want %q", k.ControllerWords, "handler "+c.want)
			}
		})
	}
}
