package logs

import "testing"

// TestPermanentFailureGaveUp: kubeflow/pipelines' persistence agent logs
// "Permanent failure while syncing resource (KEY): ERR" and then Forgets
// the key, never requeued (persistence_worker.go, read in its source);
// batch 10's 235 (kubeflow/pipelines#869) is one such line, its pieces put
// back on one line (logfmtcont.go). The words open the message: a
// "permanent failure" inside the error of an "Error syncing" line (the
// idiom's retry) gives up nothing.
func TestPermanentFailureGaveUp(t *testing.T) {
	r := wantLineRead(t, `time="2019-02-27T16:32:26Z" level=error msg="Permanent failure while syncing resource (kubeflow/calculation-pipeline-grqzn): CustomError (code: 1): Syncing Workflow (calculation-pipeline-grqzn): permanent failure`,
		"unknown", "kubeflow/calculation-pipeline-grqzn", "CustomError (code: 1): Syncing Workflow (calculation-pipeline-")
	if !r.GaveUp {
		t.Errorf("read as retried, want given up")
	}
	r = wantLineRead(t, `time="2019-02-27T16:32:26Z" level=error msg="Error syncing resource (kubeflow/x): permanent failure of the disk"`,
		"unknown", "kubeflow/x", "permanent failure of the disk")
	if r.GaveUp {
		t.Errorf("read as given up, want retried")
	}
}
