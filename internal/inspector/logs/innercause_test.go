package logs

import (
	"strings"
	"testing"
)

// TestInnerCauseOfWarning: a reconciler's own error line naming its key
// ("… KEY finalize error ERR", at error level) gives its error to the
// "returned both" warning of the same attempt that follows (batch 4's 326,
// aibrix, verbatim, its Reconciler error cut by the paste); alone, or
// after the warning, or with the word error before the key, it is no
// failure and no error.
func TestInnerCauseOfWarning(t *testing.T) {
	aibrix := strings.Split(readTestdata(t, "testdata/batch4/326-aibrix-klogr-inner-error-and-both-result-and-error-warning.log"), "\n")
	// https://github.com/OT-CONTAINER-KIT/redis-operator/pull/705, the
	// warning verbatim (zap JSON, another project), after an error line of
	// the same shape for its key.
	redisWarning := `{"level":"info","ts":"2023-11-21T21:42:03+08:00","msg":"Warning: Reconciler returned both a non-zero result and a non-nil error. The result will always be ignored if the error is non-nil and the non-nil error causes reqeueuing with exponential backoff. For more details, see: https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/reconcile#Reconciler","controller":"rediscluster","controllerGroup":"redis.redis.opstreelabs.in","controllerKind":"RedisCluster","RedisCluster":{"name":"redis-cluster-v1beta2","namespace":"kuttl-test-social-bluejay"},"namespace":"kuttl-test-social-bluejay","name":"redis-cluster-v1beta2","reconcileID":"97a22714-ba92-41d6-a76a-0dbb67bf677d"}`
	redisCause := `{"level":"error","ts":"2023-11-21T21:42:03+08:00","msg":"Reconciling RedisCluster kuttl-test-social-bluejay/redis-cluster-v1beta2 error: leader not found"}`
	for _, tt := range []struct {
		name, log      string
		key, errPrefix string // key "": no key read
		wantFailures   int
	}{
		{"aibrix: the cause, then the warning", strings.Join(aibrix[:2], "\n"), "default/llm-xpyd-roleset-fkh4v", `pods "llm-xpyd-roleset-fkh4v-decode-7c496cff6f-0" not found`, 1},
		{"redis-operator's warning after a cause", redisCause + "\n" + redisWarning, "kuttl-test-social-bluejay/redis-cluster-v1beta2", "leader not found", 1},
		{"the warning alone", redisWarning, "kuttl-test-social-bluejay/redis-cluster-v1beta2", warningNoError, 1},
		{"the cause alone is no failure", aibrix[0], "", "", 0},
		{"the cause after the warning is not its error", redisWarning + "\n" + redisCause, "kuttl-test-social-bluejay/redis-cluster-v1beta2", warningNoError, 1},
		{"the word error before the key, then a warning", "E0706 08:04:46.350836       1 roleset_controller.go:114] unexpected error for default/llm-xpyd-roleset-fkh4v\n" + aibrix[1], "default/llm-xpyd-roleset-fkh4v", warningNoError, 1},
		{"the word error and nothing after it", `E0706 08:04:46.350836       1 roleset_controller.go:114] Reconciling RoleSet default/llm-xpyd-roleset-fkh4v finalize error`, "", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{key: tt.key, errPrefix: tt.errPrefix, failures: tt.wantFailures})
		})
	}
}
