// Package snapshot records what a controller's endpoints say at one moment
// in one self-describing file, for the incident ticket and the postmortem,
// and reads it back: as a read-only Session (so `kubectl backoff top --file`
// browses it offline as it browses a live controller), and as a Diff of two
// snapshots.
//
//	f, err := snapshot.Take(ctx, session, snapshot.TakeOptions{Source: "deploy/my-controller"})
//	if err != nil {
//		return err
//	}
//	err = snapshot.Write(out, f)
//
// and later, anywhere, with no cluster:
//
//	f, err := snapshot.Read(in)
//	s := inspector.InProcessSession(nil, snapshot.Handlers(f)...) // Keys, Key, Errors, Overview, Describe: as they were
//
// A snapshot holds every key (v1/keys, paged in key order with the
// continue token) and the history (v1/key) of the keys in backoff or
// failed, most failures first, up to MaxDetails.
package snapshot
