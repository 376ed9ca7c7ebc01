package snapshot_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

// A snapshot of a saved log written before the list said its source once
// (testdata/legacy-capz-3107.json: `kubectl backoff snapshot --from-logs`
// of the wild capz-3107 excerpt, by the tool at 1a6733f) carried the log's
// facts on each controller. Read now, they are the replica's source, and
// served back the list says them: the snapshot is still judged as of the
// log's last line, still advises -v=5, and says it is a snapshot.
func TestReadLegacyLogSnapshot(t *testing.T) {
	f, err := os.Open("testdata/legacy-capz-3107.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := snapshot.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	end := time.Date(2026, 1, 27, 10, 26, 42, 645793000, time.UTC)
	want := api.ListSource{Kind: api.SourceLogs, SuccessesHow: "-v=5", EndsAt: end}
	if len(file.Endpoints) != 1 || file.Endpoints[0].Source == nil || *file.Endpoints[0].Source != want {
		t.Fatalf("endpoints %+v; want one whose source is %+v", file.Endpoints, want)
	}
	list, err := inspector.InProcessSession(nil, snapshot.Handlers(file)...).Endpoints()[0].Client.Controllers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	served := want
	served.SnapshotAt = file.TakenAt // and says it is a snapshot, once
	if list.Source == nil || *list.Source != served {
		t.Errorf("served source %+v, want %+v", list.Source, served)
	}
}
