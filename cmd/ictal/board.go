package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/ictal/ictal/internal/board"
	"github.com/ictal/ictal/internal/cli"
)

// runBoard implements `ictal board [flags]`, the clinicians' ward board
// in a browser, and `ictal board user add -users FILE NAME`.
func runBoard(args []string, stdout, stderr io.Writer) error {
	if len(args) >= 2 && args[0] == "user" && args[1] == "add" {
		return runBoardUserAdd(args[2:], os.Stdin, stderr)
	}
	fs := newFlags("board", "usage: ictal board -site SITE -users FILE -audit FILE [-listen ADDR] [-tls-cert PEM -tls-key PEM] [broker flags]\n"+
		"       ictal board user add -users FILE NAME   (password on standard input)\n"+
		"Serves the ward board: every bed's state and score, alerts with their EEG, acknowledgement and feedback.\n"+
		"-client-id defaults to ictal-board-SITE: the board's persistent MQTT session.", stderr)
	cf := addConnFlags(fs, "tcp://127.0.0.1:1883")
	site := fs.String("site", "", "site whose beds the board shows (subscribes to ictal/SITE/#)")
	listen := fs.String("listen", "127.0.0.1:8080", "address the web server listens on")
	users := fs.String("users", "", "users file (ictal board user add writes it)")
	audit := fs.String("audit", "", "audit log, JSON lines, appended")
	tlsCert := fs.String("tls-cert", "", "PEM certificate to serve HTTPS with (with -tls-key)")
	tlsKey := fs.String("tls-key", "", "PEM private key of -tls-cert")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	srv, err := board.New(board.Config{
		Site: *site, Users: *users, Audit: *audit, TLSCert: *tlsCert, TLSKey: *tlsKey, ClientID: cf.clientID, MQTT: cf.connection(),
	}, log)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return srv.Serve(ctx, l)
}

// runBoardUserAdd adds a user (or sets their password), reading the
// password from the first line of stdin.
func runBoardUserAdd(args []string, stdin io.Reader, stderr io.Writer) error {
	fs := newFlags("board user add", "usage: ictal board user add -users FILE NAME   (the password is the first line of standard input)", stderr)
	users := fs.String("users", "", "users file to create or update")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *users == "" || fs.NArg() != 1 {
		fs.Usage()
		return errors.New("want -users FILE and one user name")
	}
	line, err := bufio.NewReader(io.LimitReader(stdin, 1024)).ReadString('\n')
	if err != nil && err != io.EOF {
		return fmt.Errorf("read password from standard input: %w", err)
	}
	pw := strings.TrimRight(line, "\r\n")
	if err := board.AddUser(*users, fs.Arg(0), []byte(pw)); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "ictal board: user %s set in %s\n", fs.Arg(0), *users)
	return nil
}
