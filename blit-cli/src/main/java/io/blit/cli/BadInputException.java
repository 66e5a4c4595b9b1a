package io.blit.cli;

/**
 * Input a tool cannot read (a missing directory, no queue, a queue of another message class): reported by
 * {@link CliSupport}'s handler as one line, exit {@value CliSupport#USAGE}. Carries no stack trace: the message
 * is the whole report.
 */
public final class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message, null, false, false);
    }
}
