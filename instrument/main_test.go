package instrument

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// TestMain gives controller-runtime's root logger a sink before any test
// runs. Without one, a test process that lives 30 s (the manager tests under
// -race) prints controller-runtime's "log.SetLogger(...) was never called"
// warning with a stack. Tests that read what is logged pass a logger of
// their own (manager.Options.Logger, the forget's logger).
func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}
