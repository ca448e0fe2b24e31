using System.Diagnostics;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Features.Navigation;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Dispatch;

/// <summary>
/// find_references and find_symbol_definition of every kind of symbol in a small solution of the host's own,
/// in memory, once per process. A search runs Roslyn code that depends on what is searched (a type cascades
/// to its constructors, a method to its overrides and implementations, a property to its accessors, ...); the
/// first search of each kind compiles that code (ReadyToRun leaves generic instantiations across assemblies
/// to the JIT: about 150 methods, half of a 15 ms first search on Shop after the warm-up's own search). A spare
/// host rehearses them while idle, after its load rehearsal; a host without one, at its first warm-up.
/// </summary>
public static class SearchRehearsal
{
    private const string Folder = "/roslyn-mcp-rehearsal";

    /// <summary>A library of two files (a partial type across them) and an application referencing it: the
    /// searches then cross projects, as most of a solution's do.</summary>
    private static readonly (string Project, string File, string Text)[] Files =
    [
        ("Shapes", "Shapes.cs", """
            using System;
            using System.Collections.Generic;

            namespace Rehearsal;

            public interface IShape
            {
                double Area();
                string Name { get; }
            }

            public abstract class Shape : IShape
            {
                public event EventHandler? Changed;
                public abstract double Area();
                public virtual string Name => GetType().Name;
                protected void OnChanged() => Changed?.Invoke(this, EventArgs.Empty);
            }

            public sealed partial class Circle(double radius) : Shape
            {
                private readonly double _radius = radius;
                public override double Area() => Math.PI * _radius * _radius;
            }

            public readonly record struct Point(int X, int Y)
            {
                public static Point operator +(Point a, Point b) => new(a.X + b.X, a.Y + b.Y);
            }

            public enum Color { Red, Green }

            public delegate void Handler(Point point);

            public static class Sequences
            {
                public static T FirstOf<T>(this IEnumerable<T> items)
                {
                    foreach (var item in items)
                    {
                        return item;
                    }
                    throw new InvalidOperationException();
                }
            }

            public class Box<T> where T : IShape
            {
                public Box(T value) => Value = value;
                public T? Value { get; set; }
                public T this[int index] => Value!;
            }
            """),
        ("Shapes", "Circle.Scaled.cs", """
            namespace Rehearsal;

            public sealed partial class Circle
            {
                public Circle Scaled(double factor) => new(_radius * factor);
            }
            """),
        ("App", "Program.cs", """
            using System;
            using System.Collections.Generic;
            using Rehearsal;

            namespace Rehearsal.App;

            public static class Program
            {
                public const int Limit = 3;

                public static void Main()
                {
                    var shapes = new List<IShape> { new Circle(1).Scaled(2) };
                    var box = new Box<Circle>(new Circle(2));
                    var point = new Point(1, 2) + new Point(3, 4);
                    var color = Color.Red;
                    Handler handler = p => Console.WriteLine(p);
                    handler(point);
                    Console.WriteLine($"{shapes.FirstOf().Area()} {box.Value?.Name} {box[0]} {color} {Limit} {nameof(Shape)}");
                }
            }
            """),
    ];

    private static int rehearsed;

    /// <summary>Runs the searches unless this process already has; a cancelled rehearsal may run again.</summary>
    public static async Task RunOnceAsync(CancellationToken cancellationToken)
    {
        if (Interlocked.Exchange(ref rehearsed, 1) == 1)
        {
            return;
        }
        try
        {
            var clock = Stopwatch.StartNew();
            var (searched, _) = await RunAsync(cancellationToken);
            Log.Info($"{searched} searches rehearsed in {clock.ElapsedMilliseconds} ms");
        }
        catch (OperationCanceledException)
        {
            Interlocked.Exchange(ref rehearsed, 0);
            throw;
        }
        catch (Exception e)
        {
            // Only the first searches' speed is lost.
            Log.Warn($"the search rehearsal failed: {e.Message}");
        }
    }

    /// <summary>The declarations searched, of those the rehearsal's solution has.</summary>
    internal static async Task<(int Searched, int Declared)> RunAsync(CancellationToken cancellationToken)
    {
        using var workspace = new AdhocWorkspace(await Composition.ServicesAsync().WaitAsync(cancellationToken));
        var solution = workspace.CurrentSolution;
        var projects = new Dictionary<string, ProjectId>();
        foreach (var name in Files.Select(f => f.Project).Distinct())
        {
            var kind = name == "App" ? OutputKind.ConsoleApplication : OutputKind.DynamicallyLinkedLibrary;
            var references = projects.Values.Select(p => new ProjectReference(p)).ToList();
            projects[name] = InMemoryProjects.Add(ref solution, name, kind, FrameworkReferences(), references);
        }
        foreach (var (project, file, text) in Files)
        {
            solution = solution.AddDocument(DocumentId.CreateNewId(projects[project]), file, text, filePath: $"{Folder}/{project}/{file}");
        }
        var (searched, declared) = (0, 0);
        foreach (var document in solution.Projects.SelectMany(p => p.Documents))
        {
            var tree = await document.GetSyntaxTreeAsync(cancellationToken);
            foreach (var name in Declarations(await tree!.GetRootAsync(cancellationToken)))
            {
                declared++;
                var at = tree.GetLineSpan(name.Span).StartLinePosition;
                var position = new Position(document.FilePath!, (uint)at.Line + 1, (uint)at.Character + 1);
                try
                {
                    await ReferencesHandler.HandleAsync(solution, new ReferencesRequest(position, true), cancellationToken);
                    await DefinitionHandler.HandleAsync(solution, position, cancellationToken);
                    searched++;
                }
                catch (HostErrorException)
                {
                    // A declaration with nothing to search (none here, but the rest still rehearses).
                }
            }
        }
        return (searched, declared);
    }

    /// <summary>The name of every declaration: types, members, parameters, type parameters, locals.</summary>
    private static IEnumerable<SyntaxToken> Declarations(SyntaxNode root) =>
        root.DescendantNodes().Select(node => node switch
        {
            BaseTypeDeclarationSyntax type => type.Identifier,
            DelegateDeclarationSyntax @delegate => @delegate.Identifier,
            MethodDeclarationSyntax method => method.Identifier,
            PropertyDeclarationSyntax property => property.Identifier,
            VariableDeclaratorSyntax variable => variable.Identifier,
            ParameterSyntax parameter => parameter.Identifier,
            TypeParameterSyntax typeParameter => typeParameter.Identifier,
            EnumMemberDeclarationSyntax member => member.Identifier,
            OperatorDeclarationSyntax @operator => @operator.OperatorToken,
            ConstructorDeclarationSyntax constructor => constructor.Identifier,
            IndexerDeclarationSyntax indexer => indexer.ThisKeyword,
            _ => default,
        }).Where(token => !token.IsKind(SyntaxKind.None)).Distinct();

    /// <summary>The running framework's assemblies the program needs (not all of them: each is read whole into
    /// memory, and the workspace is thrown away).</summary>
    private static MetadataReference[] FrameworkReferences() =>
        InMemoryProjects.RuntimeAssemblies(name =>
            name is "System.Private.CoreLib.dll" or "System.Runtime.dll" or "System.Collections.dll" or "System.Console.dll");
}
