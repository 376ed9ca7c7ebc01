package logs

import (
	"strings"
	"testing"
)

// TestRetryClauseKey: a storage provisioner's `Sync failed: Will re-queue
// storage "default:magic-stor": ERR` (batch13/1301, pasted in a project's
// notes) is its key's failed attempt, twice, the key in the retry clause
// after the failure's colon and joined by a colon; a namespace/name there
// is read too. Not read: a host and port where the key would be, a clause
// that does not open with the retry words, more words before the key, no
// error after it.
func TestRetryClauseKey(t *testing.T) {
	log := readTestdata(t, "testdata/batch13/1301-storage-provisioner-klog-sync-failed-will-requeue-colon-key-shell-prompt-restart.log")
	first := firstLineWith(t, log, "Sync failed") + "\n"
	const errPrefix = "no kind is registered for the type v1alpha1.Storage"
	for _, tt := range []struct {
		name, log, key string
		failures       int
	}{
		{"a colon-joined key, twice", log, "default:magic-stor", 2},
		{"a namespace/name", strings.Replace(first, `"default:magic-stor"`, `"default/magic-stor"`, 1), "default/magic-stor", 1},
		{"a host and port", strings.Replace(first, `"default:magic-stor"`, `"localhost:8080"`, 1), "", 0},
		{"no retry words first", strings.Replace(first, "Sync failed: Will re-queue storage", "Sync failed: storage, will re-queue it,", 1), "", 0},
		{"more words before the key", strings.Replace(first, "re-queue storage", "re-queue the v1alpha1 storage object", 1), "", 0},
		{"no error after it", first[:strings.Index(first, `": no kind`)+1] + "\n", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: "ddp-storage-provisioner", key: tt.key, errPrefix: errPrefix, failures: tt.failures})
		})
	}
}
