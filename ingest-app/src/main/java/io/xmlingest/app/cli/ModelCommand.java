package io.xmlingest.app.cli;

import io.xmlingest.app.model.XjcModelCompiler;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "model", mixinStandardHelpOptions = true,
        description = "Works with record models: JAXB classes that records are bound to.",
        subcommands = {ModelCommand.Compile.class},
        footer = {"", "Examples:", "  java -jar ingest-app.jar model compile --xsd shop.xsd --out shop-model.jar"})
final class ModelCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // As the bare command does: a usage error, exit 2 (it printed its usage and exited 0).
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand: compile");
    }

    @Command(name = "compile", mixinStandardHelpOptions = true,
            description = {"Compiles XML Schema files into a jar of JAXB classes (xjc, then javac) for model.path, "
                    + "and prints each global element with its class: the values for record.element and record.class.",
                "Needs a JDK. Schemas may include or import local files only; nothing is fetched over the network."},
            footer = {"", "Examples:",
                "  java -jar ingest-app.jar model compile --xsd shop.xsd --out shop-model.jar",
                "  java -jar ingest-app.jar model compile --xsd a.xsd --xsd b.xsd \\",
                "      --package com.example.model --out model.jar"})
    static final class Compile implements Callable<Integer> {

        @Option(names = "--xsd", paramLabel = "FILE", required = true, description = "A schema file, or a JAXB bindings file (.xjb) that renames what xjc cannot name; "
                + "repeatable.")
        List<Path> schemas;

        @Option(names = "--package", paramLabel = "NAME",
                description = "Put every class in this Java package (default: derived from each namespace).")
        String packageName;

        @Option(names = "--out", paramLabel = "JAR", required = true, description = "The jar to write.")
        Path out;

        @Override
        public Integer call() {
            XjcModelCompiler.Result result = XjcModelCompiler.compile(schemas, packageName, out);
            System.out.println("wrote " + result.jar() + ": " + result.classes() + " classes");
            if (result.warning() != null) {
                System.err.println("warning: " + result.warning());
            }
            System.out.println("record elements and their classes (use with -s model.path=" + result.jar() + "):");
            for (XjcModelCompiler.Candidate c : result.candidates()) {
                System.out.println("  record.element=" + c.element() + "  record.class=" + c.className());
            }
            for (XjcModelCompiler.AbstractElement a : result.abstracts()) {
                // Several substitutes are one pass's several record types (fan-out): lists line up entry by entry.
                System.out.println("  (" + a.element() + " is abstract, so never in a file: " + (a.substitutes().isEmpty()
                        ? "no element of the schema that binds to a class stands for it)"
                        : "records of it are its substitutes, record.element=" + a.substitutes().stream()
                        .map(c -> c.element().toString()).collect(java.util.stream.Collectors.joining(","))
                        + "  record.class=" + a.substitutes().stream().map(XjcModelCompiler.Candidate::className)
                        .collect(java.util.stream.Collectors.joining(",")) + ")"));
            }
            return ExitCodes.OK;
        }
    }
}
