module lr

go 1.26

require github.com/sirupsen/logrus v1.9.4

require golang.org/x/sys v0.47.0 // indirect
