package dev.keyhaven.policy;

import dev.keyhaven.policy.time.CronSpan;
import dev.keyhaven.policy.time.Rfc3339;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A Pratt parser from tokens to a {@link Node} tree. Precedence, loosest first: {@code ||}, {@code &&}, the
 * comparisons ({@code == != < > <= >= in}, which do not chain), prefix {@code !}, then access ({@code .f},
 * {@code [i]}, {@code [a..b]}, method calls). Every level of nesting is counted against
 * {@link Limits#MAX_NESTING_DEPTH} before recursing, so no input can overflow the stack.
 */
final class Parser {
    private static final int OR = 1;
    private static final int AND = 2;
    private static final int COMPARISON = 3;
    private static final int PREFIX = 4;

    private final List<Token> tokens;
    private final List<String> boundVariables = new ArrayList<>();
    private final Set<String> keywords = new HashSet<>();
    private int position;
    private int depth;
    private int maxVariables;

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** The tree of a whole expression, the keywords it reads and how many predicate variables it nests. */
    record Parsed(Node root, Set<String> keywords, int variableSlots) {}

    /** @throws PolicyParseException if the source is not one well-formed expression within the limits */
    static Parsed parse(String source) {
        if (source.length() > Limits.MAX_SOURCE_LENGTH) {
            throw new PolicyParseException(
                    "expression is " + source.length() + " characters long; the limit is " + Limits.MAX_SOURCE_LENGTH,
                    Limits.MAX_SOURCE_LENGTH + 1);
        }
        Parser parser = new Parser(Lexer.tokenize(source));
        Node root = parser.expression(OR);
        if (parser.peek().kind() != TokenKind.END) {
            throw parser.unexpected(parser.peek());
        }
        return new Parsed(root, Set.copyOf(parser.keywords), parser.maxVariables);
    }

    private Node expression(int minimumPrecedence) {
        enter();
        Node left = prefix();
        while (true) {
            Token token = peek();
            if (token.kind() == TokenKind.OR && minimumPrecedence <= OR) {
                left = logical(Node.LogicalOperator.OR, TokenKind.OR, OR, left);
            } else if (token.kind() == TokenKind.AND && minimumPrecedence <= AND) {
                left = logical(Node.LogicalOperator.AND, TokenKind.AND, AND, left);
            } else if (minimumPrecedence <= COMPARISON
                    && comparisonOperator(token.kind()).isPresent()) {
                left = comparison(left);
            } else {
                break;
            }
        }
        depth--;
        return left;
    }

    /** {@code a || b || c} becomes one node with three operands: evaluation visits all of them anyway. */
    private Node logical(Node.LogicalOperator operator, TokenKind kind, int precedence, Node first) {
        int column = peek().column();
        List<Node> operands = new ArrayList<>();
        operands.add(first);
        while (peek().kind() == kind) {
            advance();
            operands.add(expression(precedence + 1));
        }
        return new Node.Logical(operator, List.copyOf(operands), column);
    }

    private Node comparison(Node left) {
        Token operator = advance();
        Node right = expression(COMPARISON + 1);
        if (comparisonOperator(peek().kind()).isPresent()) {
            throw new PolicyParseException("comparisons cannot be chained; use parentheses", peek().column());
        }
        return new Node.Comparison(comparisonOperator(operator.kind()).orElseThrow(), left, right, operator.column());
    }

    private Node prefix() {
        Token token = advance();
        Node node = switch (token.kind()) {
            case NOT -> new Node.Not(expression(PREFIX), token.column());
            case TRUE -> new Node.Literal(BoolValue.TRUE, token.column());
            case FALSE -> new Node.Literal(BoolValue.FALSE, token.column());
            case INTEGER -> new Node.Literal(integer(token), token.column());
            case STRING -> new Node.Literal(new StringValue(token.text()), token.column());
            case LEFT_PAREN -> parenthesized();
            case LEFT_BRACKET -> listLiteral(token);
            case IDENTIFIER -> peek().kind() == TokenKind.LEFT_PAREN ? timeFunction(token) : name(token);
            default ->
                throw token.kind() == TokenKind.END
                        ? new PolicyParseException("expected an expression", token.column())
                        : unexpected(token);
        };
        return postfix(node);
    }

    private Node parenthesized() {
        Node inner = expression(OR);
        expect(TokenKind.RIGHT_PAREN);
        return inner;
    }

    private Node listLiteral(Token open) {
        List<Node> elements = new ArrayList<>();
        if (peek().kind() != TokenKind.RIGHT_BRACKET) {
            do {
                elements.add(expression(OR));
            } while (match(TokenKind.COMMA));
        }
        expect(TokenKind.RIGHT_BRACKET);
        if (elements.stream().allMatch(Node.Literal.class::isInstance)) {
            // An allowlist such as ['AUTH', 'OTP'] is a constant: built once here, not on every evaluation.
            List<Value> values = elements.stream()
                    .map(element -> ((Node.Literal) element).value())
                    .toList();
            return new Node.Literal(Value.list(values), open.column());
        }
        return new Node.ListLiteral(List.copyOf(elements), open.column());
    }

    /** The innermost predicate variable of that name, else a keyword of the environment. */
    private Node name(Token token) {
        int slot = boundVariables.lastIndexOf(token.text());
        if (slot >= 0) {
            return new Node.Variable(token.text(), slot, token.column());
        }
        keywords.add(token.text());
        return new Node.Keyword(token.text(), token.column());
    }

    /** Access chains ({@code a.b[0].c(…)}) loop instead of recursing; each link still counts as a level of depth. */
    private Node postfix(Node receiver) {
        int links = 0;
        Node node = receiver;
        while (peek().kind() == TokenKind.DOT || peek().kind() == TokenKind.LEFT_BRACKET) {
            enter();
            links++;
            node = advance().kind() == TokenKind.DOT ? member(node) : index(node);
        }
        depth -= links;
        return node;
    }

    private Node member(Node receiver) {
        Token name = expect(TokenKind.IDENTIFIER, "a field or function name after '.'");
        if (!match(TokenKind.LEFT_PAREN)) {
            return new Node.Field(receiver, name.text(), name.column());
        }
        return switch (name.text()) {
            case "all" -> predicate(Node.PredicateFunction.ALL, receiver, name);
            case "any" -> predicate(Node.PredicateFunction.ANY, receiver, name);
            case "filter" -> predicate(Node.PredicateFunction.FILTER, receiver, name);
            case "contains" -> {
                Node element = expression(OR);
                expect(TokenKind.RIGHT_PAREN);
                yield new Node.Contains(receiver, element, name.column());
            }
            case "count" -> {
                expect(TokenKind.RIGHT_PAREN);
                yield new Node.Count(receiver, name.column());
            }
            default -> throw new PolicyParseException("unknown function '" + name.text() + "'", name.column());
        };
    }

    /**
     * {@code receiver.any(v, body)}. {@code v} is visible only in {@code body}, where it hides a keyword of the same
     * name (so {@code wallets.any(wallet, wallet.id == 'x')} reads each element). Reusing the variable of an enclosing
     * predicate is an error rather than a silent shadow, since the outer variable could then not be reached.
     */
    private Node predicate(Node.PredicateFunction function, Node receiver, Token name) {
        Token variable = expect(TokenKind.IDENTIFIER, "a variable name as the first argument of '" + name.text() + "'");
        if (boundVariables.contains(variable.text())) {
            throw new PolicyParseException(
                    "variable '" + variable.text() + "' is already bound by an enclosing " + "predicate",
                    variable.column());
        }
        expect(TokenKind.COMMA);
        int slot = boundVariables.size();
        boundVariables.add(variable.text());
        maxVariables = Math.max(maxVariables, boundVariables.size());
        Node body = expression(OR);
        boundVariables.removeLast();
        expect(TokenKind.RIGHT_PAREN);
        return new Node.Predicate(function, receiver, variable.text(), slot, body, name.column());
    }

    private Node index(Node receiver) {
        int column = previous().column();
        Node start = expression(OR);
        if (match(TokenKind.RANGE)) {
            Node end = expression(OR);
            expect(TokenKind.RIGHT_BRACKET);
            return new Node.Slice(receiver, start, end, column);
        }
        expect(TokenKind.RIGHT_BRACKET);
        return new Node.Index(receiver, start, column);
    }

    /**
     * {@code Timestamp('…')} and {@code CronSpan('…', '…', '…')}, the only global functions. Their arguments must be
     * string literals, so they are parsed once here; one that does not parse is kept as an {@code INVALID_ARGUMENT}
     * for evaluation to report (see {@link Node.InvalidTimeCall}).
     */
    private Node timeFunction(Token name) {
        int parameters = switch (name.text()) {
            case "Timestamp" -> 1;
            case "CronSpan" -> 3;
            default -> throw new PolicyParseException("unknown function '" + name.text() + "'", name.column());
        };
        advance();
        List<String> arguments = new ArrayList<>();
        do {
            arguments.add(expect(TokenKind.STRING, "a string literal argument").text());
        } while (match(TokenKind.COMMA));
        expect(TokenKind.RIGHT_PAREN);
        if (arguments.size() != parameters) {
            throw new PolicyParseException(
                    "'" + name.text() + "' takes " + parameters + " argument" + (parameters == 1 ? "" : "s") + ", not "
                            + arguments.size(),
                    name.column());
        }
        String call = name.text() + arguments.stream().map(Printer::string).collect(Collectors.joining(", ", "(", ")"));
        try {
            if (parameters == 1) {
                return new Node.Literal(new TimestampValue(Rfc3339.parseUtc(arguments.getFirst())), name.column());
            }
            keywords.add("time");
            return new Node.InCronSpan(
                    CronSpan.parse(arguments.get(0), arguments.get(1), arguments.get(2)), name.column());
        } catch (IllegalArgumentException e) {
            return new Node.InvalidTimeCall(call, e.getMessage(), name.column());
        }
    }

    private IntValue integer(Token token) {
        BigInteger value = new BigInteger(token.text());
        if (!IntValue.inRange(value)) {
            throw new PolicyParseException("integer literal is larger than 2^256 - 1", token.column());
        }
        return new IntValue(value);
    }

    private static Optional<Node.ComparisonOperator> comparisonOperator(TokenKind kind) {
        return Optional.ofNullable(
                switch (kind) {
                    case EQ -> Node.ComparisonOperator.EQ;
                    case NE -> Node.ComparisonOperator.NE;
                    case LT -> Node.ComparisonOperator.LT;
                    case GT -> Node.ComparisonOperator.GT;
                    case LE -> Node.ComparisonOperator.LE;
                    case GE -> Node.ComparisonOperator.GE;
                    case IN -> Node.ComparisonOperator.IN;
                    default -> null;
                });
    }

    private void enter() {
        if (++depth > Limits.MAX_NESTING_DEPTH) {
            throw new PolicyParseException(
                    "expression nests deeper than " + Limits.MAX_NESTING_DEPTH + " levels", peek().column());
        }
    }

    private Token peek() {
        return tokens.get(position);
    }

    private Token previous() {
        return tokens.get(position - 1);
    }

    /** The current token, moving past it; END is never passed, so reading on after it stays at END. */
    private Token advance() {
        Token token = peek();
        if (token.kind() != TokenKind.END) {
            position++;
        }
        return token;
    }

    private boolean match(TokenKind kind) {
        if (peek().kind() == kind) {
            position++;
            return true;
        }
        return false;
    }

    private Token expect(TokenKind kind) {
        return expect(kind, kind.display);
    }

    private Token expect(TokenKind kind, String what) {
        if (peek().kind() != kind) {
            throw new PolicyParseException("expected " + what, peek().column());
        }
        return advance();
    }

    private PolicyParseException unexpected(Token token) {
        return new PolicyParseException("unexpected " + token.display(), token.column());
    }
}
