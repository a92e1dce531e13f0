// The reference for bench/dashboard_cost.sh: an empty QMainWindow of the dashboard's default
// size, shown and left alone, so the table can say what any idle Qt window costs on the same
// display in the same run.
#include <QApplication>
#include <QMainWindow>

int main(int argc, char *argv[]) {
    QApplication app(argc, argv);
    QMainWindow window;
    window.setWindowTitle(QStringLiteral("idle Qt window"));
    window.resize(1360, 860); // MainWindow's default size
    window.show();
    return app.exec();
}
