package logs

import (
	"bytes"
	"strings"
)

// kube-controller-manager runs one code for two controllers: the
// ReplicaSet controller and the ReplicationController controller both log
// their failures from replica_set.go ("sync KEY failed with ERR", through
// HandleError), which names neither. Other lines of the log tell them
// apart (pkg/controller/replicaset/replica_set.go, v1.3x): the one
// "Starting controller" line each logs with name=strings.ToLower(Kind)
// (a log in which only one of them started holds only its keys), and the
// lines that name a key with its kind ("Slow-start failure" and "Finished
// syncing": kind="ReplicaSet" replicaSet=/key=KEY) or under the
// controller's logger name (logger="replicaset-controller", where
// contextual logging is on). A key of replica_set.go is named by them; by
// kcmAmbiguous only where nothing tells. A live log uses the "Starting
// controller" lines only (see replicaControllerLocked).

// replicaSetFile is in every line replica_set.go logs.
var replicaSetFile = []byte("replica_set.go:")

// replicaHints is what a log said of replica_set.go's two controllers.
type replicaHints struct {
	// started are the controllers whose "Starting controller" line the
	// log holds; byKey names a key's controller where a line said it.
	started map[string]bool
	byKey   map[string]string
}

// replicaControllers are kube-controller-manager's names of the two, by
// the lower-case kind its "Starting controller" line and kind= carry.
var replicaControllers = map[string]string{
	"replicaset":            "replicaset-controller",
	"replicationcontroller": "replicationcontroller-controller",
}

// noteReplicaHint reads a line of replica_set.go that is not a failure for
// what it says of which controller is which.
func (s *Store) noteReplicaHint(line []byte) {
	if !bytes.Contains(line, replicaSetFile) {
		return
	}
	name := ""
	if v, ok := quotedField(line, "logger"); ok && (v == "replicaset-controller" || v == "replicationcontroller-controller") {
		name = v
	} else if v, ok := quotedField(line, "kind"); ok {
		name = replicaControllers[strings.ToLower(v)]
	}
	started := ""
	if bytes.Contains(line, []byte(`"Starting controller"`)) {
		if v, ok := quotedField(line, "name"); ok {
			started = replicaControllers[v]
		}
	}
	key, _ := quotedField(line, "replicaSet")
	if key == "" {
		key, _ = quotedField(line, "key")
	}
	if started == "" && (name == "" || key == "") {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h := &s.replicas
	if started != "" {
		if h.started == nil {
			h.started = map[string]bool{}
		}
		h.started[started] = true
	}
	if name != "" && key != "" {
		if h.byKey == nil || len(h.byKey) > 4*DefaultMaxKeys {
			h.byKey = map[string]string{}
		}
		h.byKey[key] = name
	}
}

// replicaControllerLocked names the controller of r, a failure of
// replica_set.go's, by what the log said (noteReplicaHint).
func (s *Store) replicaControllerLocked(r *Record) {
	if r.Controller != kcmAmbiguous {
		return
	}
	// A key's own lines are used where all of them were seen before its
	// failures are applied: a saved log's (held to the end of the read,
	// order.go). A live log's come after its failures as often as before
	// ("Finished syncing" follows each sync): naming the key by them would
	// split it in two.
	if name, ok := s.replicas.byKey[r.Key()]; ok && !s.opts.Live {
		r.Controller = name
		return
	}
	if len(s.replicas.started) == 1 {
		for name := range s.replicas.started {
			r.Controller = name
		}
	}
}

// quotedField is the value of klog's key="value" in line.
func quotedField(line []byte, key string) (string, bool) {
	pat := []byte(" " + key + `="`)
	i := bytes.Index(line, pat)
	if i < 0 {
		return "", false
	}
	v := line[i+len(pat):]
	e := bytes.IndexByte(v, '"')
	if e < 0 {
		return "", false
	}
	return string(v[:e]), true
}
