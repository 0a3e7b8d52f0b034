//go:build !unix

package session

import (
	"errors"
	"os"
)

func redirectStdio(out, errOut *os.File) (*os.File, func(), error) {
	return nil, nil, errors.New("session: capturing standard output needs a Unix system")
}
