// Command crsinks runs a controller-runtime ConfigMap reconciler against
// envtest's kube-apiserver with its logger set to the sink -sink names, so
// batch27 holds the same controller's lines through many sinks.
//
//	KUBEBUILDER_ASSETS=$(hack/k8s-bin.sh) go run ./crsinks -sink slog-json 2>&1 | tee crsinks-slog-json.log
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"

	"github.com/bombsimon/logrusr/v4"
	"github.com/go-logr/logr"
	"github.com/go-logr/stdr"
	"github.com/go-logr/zerologr"
	"github.com/rs/zerolog"
	"github.com/sirupsen/logrus"
	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"sinks26/scenario"
)

func logger(sink string) logr.Logger {
	switch sink {
	case "slog-json":
		return logr.FromSlogHandler(slog.NewJSONHandler(os.Stderr, nil))
	case "slog-text":
		return logr.FromSlogHandler(slog.NewTextHandler(os.Stderr, nil))
	case "logrus":
		return logrusr.New(logrus.New())
	case "zerolog":
		zl := zerolog.New(os.Stderr).With().Timestamp().Logger()
		return zerologr.New(&zl)
	case "textlogger":
		return textlogger.NewLogger(textlogger.NewConfig())
	case "klogr":
		return klog.NewKlogr()
	case "stdr":
		return stdr.New(log.New(os.Stderr, "", log.LstdFlags))
	case "stdr-caller":
		// Microsecond UTC stamps and the caller, as stdr.Options allows.
		return stdr.NewWithOptions(log.New(os.Stderr, "", log.LstdFlags|log.Lmicroseconds|log.LUTC), stdr.Options{LogCaller: stdr.All})
	case "zap-dev":
		return zap.New(zap.UseDevMode(true))
	case "zap-dev-nostack":
		return zap.New(zap.UseDevMode(true), zap.StacktraceLevel(zapcore.DPanicLevel))
	case "zap-flags":
		// --zap-encoder=console --zap-time-encoding=rfc3339nano, as a
		// kubebuilder main.go binds them.
		o := zap.Options{}
		fs := flag.NewFlagSet("zap", flag.ExitOnError)
		o.BindFlags(fs)
		if err := fs.Parse([]string{"--zap-encoder=console", "--zap-time-encoding=rfc3339nano"}); err != nil {
			panic(err)
		}
		return zap.New(zap.UseFlagOptions(&o))
	}
	panic("unknown -sink " + sink)
}

type reconciler struct{ s *scenario.Reconciler }

func (r reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	log := ctrl.LoggerFrom(ctx)
	out, err := r.s.Sync(ctx, req.Namespace, req.Name)
	if err != nil {
		return reconcile.Result{}, err
	}
	if out.RequeueAfter > 0 {
		log.Info("rollout not finished, checking again", "after", out.RequeueAfter.String())
		return reconcile.Result{RequeueAfter: out.RequeueAfter}, nil
	}
	if out.Synced {
		log.V(0).Info("configmap synced")
	}
	return reconcile.Result{}, nil
}

func main() {
	sink := flag.String("sink", "slog-json", "the logr sink")
	flag.Parse()
	ctrl.SetLogger(logger(*sink))
	env, cfg, err := scenario.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer func() { _ = env.Stop() }()
	cs := kubernetes.NewForConfigOrDie(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	if err := scenario.Prepare(ctx, cs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	r := reconciler{&scenario.Reconciler{CS: cs, Kind: scenario.Kind{Own: "configmaps", Ref: "secrets"}}}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r); err != nil {
		panic(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := mgr.Start(ctx); err != nil {
			ctrl.Log.Error(err, "problem running manager")
		}
	}()
	scenario.Drive(ctx, cs, scenario.Kind{Own: "configmaps", Ref: "secrets"})
	cancel()
	<-done
}
