package io.xmlingest.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** Draws the report's charts as PNG files with XChart. */
final class Charts {
    private Charts() {
    }

    static void write(Bench.Results r, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        xy(r, dir.resolve("throughput"), "Records per second by file size", "records/s", true, true,
                Measurement::recordsPerSecond);
        xy(r, dir.resolve("time"), "Median wall time by file size", "seconds", true, true,
                m -> m.medianNanos() / 1e9);
        xy(r, dir.resolve("heap"), "Peak heap used by file size", "MB", true, true,
                m -> Math.max(1, m.peakHeapUsed() / 1048576.0));
        phases(r, dir.resolve("phases"));
    }

    private static void xy(Bench.Results r, Path file, String title, String yTitle, boolean logX, boolean logY,
                           ToDoubleFunction<Measurement> y) throws IOException {
        XYChart chart = new XYChartBuilder().width(1000).height(600).title(title).xAxisTitle("records in file")
                .yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(logX).setYAxisLogarithmic(logY)
                .setLegendPosition(Styler.LegendPosition.OutsideE).setMarkerSize(6);
        for (var strategy : r.plan().strategies()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (Measurement m : r.measurements()) {
                if (m.ok() && m.strategy().equals(strategy.name())) {
                    xs.add((double) m.size());
                    ys.add(y.applyAsDouble(m));
                }
            }
            if (!xs.isEmpty()) {
                chart.addSeries(strategy.name(), xs, ys);
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Ours, per phase, as stacked bars at the largest size. */
    private static void phases(Bench.Results r, Path file) throws IOException {
        long size = r.plan().sizes().get(r.plan().sizes().size() - 1);
        List<Measurement> ours = r.measurements().stream()
                .filter(m -> m.ok() && m.size() == size && !m.phases().isEmpty()).toList();
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(600)
                .title("Where ours spends its time at " + size + " records").xAxisTitle("strategy").yAxisTitle("seconds")
                .build();
        chart.getStyler().setStacked(true).setLegendPosition(Styler.LegendPosition.OutsideE);
        List<String> names = ours.stream().map(Measurement::strategy).toList();
        for (String phase : List.of("identify", "scan", "bind", "serialize", "publish")) {
            List<Double> values = ours.stream().map(m -> m.phases().getOrDefault(phase, 0.0)).toList();
            if (!names.isEmpty()) {
                chart.addSeries(phase, names, values);
            }
        }
        if (names.isEmpty()) {
            chart.addSeries("no phases measured", List.of("none"), List.of(0.0));
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
