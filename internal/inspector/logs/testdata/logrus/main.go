// Writes a controller-runtime "Reconciler error" through logrus, as a
// logr→logrus adapter (github.com/bombsimon/logrusr) does: the message, the
// key/values as fields, the error as "error".
package main

import (
	"errors"
	"os"
	"time"

	"github.com/sirupsen/logrus"
)

func main() {
	for _, f := range []logrus.Formatter{
		&logrus.TextFormatter{},                  // not a terminal: time="…" level=error msg=…
		&logrus.TextFormatter{ForceColors: true}, // a terminal: ERRO[0000] msg  key=value
		&logrus.TextFormatter{ForceColors: true, FullTimestamp: true},
		&logrus.JSONFormatter{},
	} {
		l := logrus.New()
		l.SetOutput(os.Stdout)
		l.SetFormatter(f)
		time.Sleep(10 * time.Millisecond)
		l.WithFields(logrus.Fields{
			"controller": "widget", "controllerKind": "Widget", "Widget": "default/w1",
			"namespace": "default", "name": "w1", "reconcileID": "5f4c",
		}).WithError(errors.New(`dial tcp 10.96.0.1:443: connect: connection refused`)).Error("Reconciler error")
	}
}
